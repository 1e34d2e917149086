import KDBXXML

/// The XML attribute type of `KDBXXML`, re-exported for model properties that keep unknown attributes.
public typealias KDBXXMLAttribute = XMLAttribute
/// The XML node type of `KDBXXML`, re-exported for model properties that keep unknown nodes.
public typealias KDBXXMLNode = XMLNode
