#!/usr/bin/env python3
"""Writes Vectors/ed25519/*.vec: Ed25519 (RFC 8032 §5.1).

- rfc8032-7.1.vec: all five test vectors of RFC 8032 §7.1 (TEST 1, 2, 3, 1024, SHA(abc)), copied from the RFC
  text; each public key and signature is re-derived with PyPI `cryptography` and must match.
- supercop-sign-input.vec: the first 128 lines of the SUPERCOP/ref10 `sign.input` file (asymmetric/Ed25519/ in
  PyPI cryptography-vectors), converted: seed, pk, msg, sig; each checked with `cryptography`.
- negative.vec: our own invalid cases (S >= L, non-canonical or undecodable A and R, tampered bytes), each with the
  RFC 8032 §5.1.7 rule it breaks; the ones `cryptography` can express are checked to fail there too.

Usage: pip install cryptography cryptography-vectors; python3 Vectors/tools/ed25519_vectors.py
"""
import hashlib
import importlib.metadata
import os

import cryptography_vectors
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "ed25519")
SIGN_INPUT = os.path.join(os.path.dirname(cryptography_vectors.__file__), "asymmetric", "Ed25519", "sign.input")
CRYPTO = importlib.metadata.version("cryptography")
L = 2**252 + 27742317777372353535851937790883648493
P = 2**255 - 19

LONG_MESSAGE = (
    "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8"
    "79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc"
    "1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
    "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7"
    "aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed185ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2"
    "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
    "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07"
    "07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128bab27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a"
    "ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
    "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8"
    "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34dff7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08"
    "d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
    "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e"
    "6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5fb93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5"
    "0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
    "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0"
)

RFC8032 = [
    ("TEST 1", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("TEST 2", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ("TEST 3", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"),
    ("TEST 1024", "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
     "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e", LONG_MESSAGE,
     "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03"),
    ("TEST SHA(abc)", "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf", hashlib.sha512(b"abc").hexdigest(),
     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704"),
]


def check(seed, pk, msg, sig):
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed))
    assert key.public_key().public_bytes_raw().hex() == pk, seed
    assert key.sign(bytes.fromhex(msg)).hex() == sig, seed


def rejected_by_cryptography(pk, msg, sig):
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(pk)).verify(bytes.fromhex(sig), bytes.fromhex(msg))
        return False
    except (InvalidSignature, ValueError):
        return True


def write(name, lines):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w") as handle:
        handle.write("\n".join(lines).rstrip("\n") + "\n")
    print(name, sum(1 for line in lines if line.startswith("pk =")), "records")


def main():
    lines = ["# SOURCE: RFC 8032 §7.1, all five Ed25519 test vectors, copied from the RFC text; public keys and",
             "# signatures re-derived with PyPI cryptography %s by Vectors/tools/ed25519_vectors.py." % CRYPTO,
             "# Fields: seed (the 32-byte private key), pk, msg, sig.", ""]
    for name, seed, pk, msg, sig in RFC8032:
        check(seed, pk, msg, sig)
        lines += ["# " + name, "seed = " + seed, "pk = " + pk, "msg = " + msg, "sig = " + sig, ""]
    write("rfc8032-7.1.vec", lines)

    lines = ["# SOURCE: SUPERCOP/ref10 sign.input (cryptography-vectors %s, asymmetric/Ed25519/sign.input), the" %
             importlib.metadata.version("cryptography_vectors"),
             "# first 128 lines, via Vectors/tools/ed25519_vectors.py; each checked with PyPI cryptography %s." % CRYPTO,
             "# Fields: seed, pk, msg, sig.", ""]
    for raw in open(SIGN_INPUT).read().splitlines()[:128]:
        secret, pk, msg, signed, _ = raw.split(":")
        seed, sig = secret[:64], signed[:128]
        assert secret[64:] == pk and signed[128:] == msg
        check(seed, pk, msg, sig)
        lines += ["seed = " + seed, "pk = " + pk, "msg = " + msg, "sig = " + sig, ""]
    write("supercop-sign-input.vec", lines)

    _, seed, pk, msg, sig = RFC8032[1]
    r, s = sig[:64], int.from_bytes(bytes.fromhex(sig[64:]), "little")
    le = lambda value: value.to_bytes(32, "little").hex()
    cases = [
        ("S + L (RFC 8032 §5.1.7: S must be below L)", pk, msg, r + le(s + L), True),
        ("S = L", pk, msg, r + le(L), True),
        ("S with the top three bits set", pk, msg, r + le(s | (7 << 253)), True),
        ("R with a bit flipped", pk, msg, ("%02x" % (int(r[:2], 16) ^ 1)) + r[2:] + sig[64:], True),
        ("message changed", pk, "73", sig, True),
        ("public key of TEST 1", RFC8032[0][2], msg, sig, True),
        ("all-zero signature", pk, msg, "00" * 64, True),
        ("A with y = p (non-canonical, RFC 8032 §5.1.3 step 1)", le(P), msg, sig, False),
        ("A with y = p + 1 (non-canonical encoding of y = 1)", le(P + 1), msg, sig, False),
        ("A = (x = 0, y = 1) with the sign bit set (§5.1.3 step 4)", le(1 | (1 << 255)), msg, sig, False),
        ("A with y = 2, no x (§5.1.3 step 3)", le(2), msg, sig, True),
        ("R with y = p (non-canonical R)", pk, msg, le(P) + sig[64:], True),
    ]
    lines = ["# SOURCE: our own invalid Ed25519 cases built from RFC 8032 §7.1 TEST 2 by Vectors/tools/ed25519_vectors.py;",
             "# each names the RFC 8032 rule it breaks. Cases marked checked=1 are also rejected by PyPI cryptography %s." % CRYPTO,
             "# Fields: pk, msg, sig, checked. Every record must fail verification (or fail to load its key).", ""]
    for reason, key, message, signature, cross in cases:
        if cross:
            assert rejected_by_cryptography(key, message, signature), reason
        lines += ["# " + reason, "pk = " + key, "msg = " + message, "sig = " + signature, "checked = %d" % cross, ""]
    write("negative.vec", lines)


if __name__ == "__main__":
    main()
