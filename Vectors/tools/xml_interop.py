#!/usr/bin/env python3
"""Interop helper for the KDBXXML tests (Tests/KDBXXMLTests/XMLInteropTests.swift).

Reference tools: Python's xml.etree.ElementTree (stdlib, backed by expat) and lxml (libxml2).

Usage:
  xml_interop.py write-etree OUT SEED   write a deterministic tricky document with xml.etree
  xml_interop.py write-lxml OUT SEED    write a deterministic tricky document with lxml (adds CDATA, comments, PIs)
  xml_interop.py dump etree|lxml FILE   parse FILE and print the root element's content, one item per line:
      S name / A name hex(value) / T hex(text) / C hex(comment) / P hex(target[ data]) / E
  Adjacent text (including CDATA) is merged. Hex is of the UTF-8 bytes.
  xml_interop.py wellformed FILE...     print "1" or "0" per FILE: whether lxml (no DTD loading, no network,
                                        no entity resolution, no recovery) reads it without error
"""
import random
import sys
import xml.etree.ElementTree as ET

ALPHABET = ["a", "b", "é", "&", "<", ">", "\"", "'", " ", "\n", "\t", "]]>", "😀", "日本", "x\r\ny", "&amp;"]


def text(rng):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 10)))


def build(module, rng, with_extras):
    root = module.Element("Root", {"Version": "4.1", "Note": text(rng)})
    root.text = text(rng)
    stack = [(root, 0)]
    count = 0
    while stack and count < 300:
        parent, depth = stack.pop()
        for index in range(rng.randrange(1, 5)):
            attributes = {f"k{j}": text(rng) for j in range(rng.randrange(0, 3))}
            child = module.SubElement(parent, rng.choice(["Entry", "String", "Value", "Größe", "x-y.z"]), attributes)
            count += 1
            kind = rng.randrange(0, 4)
            if kind == 0:
                child.text = text(rng)
            elif kind == 1 and with_extras:
                import lxml.etree
                child.text = lxml.etree.CDATA(text(rng).replace("\r", ""))
            child.tail = text(rng)
            if with_extras and rng.randrange(0, 6) == 0:
                comment = module.Comment(text(rng).replace("-", "_").replace("\r", ""))
                comment.tail = text(rng)
                parent.append(comment)
            if with_extras and rng.randrange(0, 8) == 0:
                parent.append(module.ProcessingInstruction("pi-target", text(rng).replace("?>", "").replace("\r", "")))
            if depth < 6 and rng.randrange(0, 2) == 0:
                stack.append((child, depth + 1))
    return root


def dump(kind, path):
    if kind == "lxml":
        import lxml.etree
        root = lxml.etree.parse(path).getroot()
        comment_type, pi_type = lxml.etree._Comment, lxml.etree._ProcessingInstruction
    else:
        parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True, insert_pis=True))
        root = ET.parse(path, parser).getroot()
        comment_type = pi_type = None
    out = []
    pending = []

    def flush():
        if pending:
            value = "".join(pending)
            if value:
                out.append("T " + value.encode().hex())
            pending.clear()

    def walk(element):
        # An explicit stack: ("open", element) / ("close", element).
        work = [("open", element)]
        while work:
            action, node = work.pop()
            if action == "close":
                flush()
                out.append("E")
                if node.tail:
                    pending.append(node.tail)
                continue
            tag = node.tag
            is_comment = tag is ET.Comment if comment_type is None else isinstance(node, comment_type)
            is_pi = tag is ET.PI if pi_type is None else isinstance(node, pi_type)
            if is_comment:
                flush()
                out.append("C " + (node.text or "").encode().hex())
                if node.tail:
                    pending.append(node.tail)
                continue
            if is_pi:
                flush()
                value = node.text or "" if pi_type is None else node.target + (" " + node.text if node.text else "")
                out.append("P " + value.encode().hex())
                if node.tail:
                    pending.append(node.tail)
                continue
            flush()
            out.append("S " + tag)
            for name, value in node.attrib.items():
                out.append("A " + name + " " + value.encode().hex())
            if node.text:
                pending.append(node.text)
            work.append(("close", node))
            for child in reversed(list(node)):
                work.append(("open", child))

    walk(root)
    flush()
    sys.stdout.write("\n".join(out) + "\n")


def main():
    command = sys.argv[1]
    if command == "write-etree":
        rng = random.Random(int(sys.argv[3]))
        tree = ET.ElementTree(build(ET, rng, False))
        tree.write(sys.argv[2], encoding="utf-8", xml_declaration=True)
    elif command == "write-lxml":
        import lxml.etree
        rng = random.Random(int(sys.argv[3]))
        tree = lxml.etree.ElementTree(build(lxml.etree, rng, True))
        tree.write(sys.argv[2], encoding="utf-8", xml_declaration=True, pretty_print=False)
    elif command == "wellformed":
        import lxml.etree
        parser = lxml.etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, recover=False)
        for path in sys.argv[2:]:
            try:
                with open(path, "rb") as handle:
                    lxml.etree.fromstring(handle.read(), parser)
                print("1")
            except lxml.etree.XMLSyntaxError:
                print("0")
    elif command == "dump":
        dump(sys.argv[2], sys.argv[3])
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
