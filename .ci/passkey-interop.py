#!/usr/bin/env python3
"""Passkeys against peers nobody here wrote (issue #37, item 7).

1. Relying parties: python-fido2's Fido2Server and py_webauthn verify `kdbx passkey register` and then
   `kdbx passkey assert`, for ES256 and EdDSA.
2. A passkey entry written exactly as KeePassXC's BrowserService::addPasskeyToEntry writes it (attribute names,
   Protected flags, PKCS#8 PEM from `cryptography`, base64url IDs), made by pykeepass: `kdbx passkey ls` lists it,
   `assert` signs, and py_webauthn verifies the signature with the public key `cryptography` made. The older
   KPXC_PASSKEY_USERNAME is read first, as KeePassXC reads it.
3. The vault `kdbx passkey register` wrote opens in keepassxc-cli and pykeepass with every attribute intact and
   the key, credential ID and user handle protected.

Usage: passkey-interop.py PATH/TO/kdbx. A missing package or peer is reported as SKIP, never as a pass. The last line
is 'N passed, N failed, N skipped'.
"""
import base64, json, os, shutil, subprocess, sys, tempfile

KDBX = os.path.abspath(sys.argv[1])
PASSWORD = "interop-pw"
RP, ORIGIN = "example.com", "https://example.com"
passed = failed = skipped = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def skip(name, why):
    global skipped
    skipped += 1
    print(f"SKIP {name}: {why}")


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def kdbx(*args, ok=True):
    run = subprocess.run([KDBX, *args], input=PASSWORD + "\n", capture_output=True, text=True)
    if ok and run.returncode != 0:
        raise RuntimeError(f"kdbx {' '.join(args)} failed: {run.stderr.strip()}")
    return run


def have(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


work = tempfile.mkdtemp(prefix="passkey-interop-")
vault = os.path.join(work, "ours.kdbx")
subprocess.run([KDBX, "create", vault, "--iterations", "2", "--memory", "1"], input=f"{PASSWORD}\n{PASSWORD}\n",
               capture_output=True, text=True, check=True)
kdbx("mkdir", vault, "Web")
registered = {}  # entry path -> (registration JSON, user handle)

# 1a. python-fido2's Fido2Server.
if have("fido2"):
    from fido2.server import Fido2Server
    from fido2.webauthn import PublicKeyCredentialRpEntity, PublicKeyCredentialUserEntity, UserVerificationRequirement

    for algorithm in ("es256", "eddsa"):
        server = Fido2Server(PublicKeyCredentialRpEntity(name="Example", id=RP))
        handle = os.urandom(32)
        user = PublicKeyCredentialUserEntity(name=f"alice-{algorithm}", id=handle, display_name="Alice")
        options, state = server.register_begin(user, user_verification=UserVerificationRequirement.REQUIRED)
        entry = f"Web/fido2-{algorithm}"
        reg = kdbx("passkey", "register", vault, entry, "--rp", RP, "--user", f"alice-{algorithm}", "--algorithm",
                   algorithm, "--user-handle", b64u(handle), "--challenge", b64u(options.public_key.challenge),
                   "--origin", ORIGIN, "--json")
        response = json.loads(reg.stdout)
        registered[entry] = (response, handle)
        try:
            auth_data = server.register_complete(state, response)
            expected_alg = -7 if algorithm == "es256" else -8
            check(f"fido2 Fido2Server.register_complete accepts kdbx passkey register ({algorithm})",
                  auth_data.credential_data.public_key[3] == expected_alg and auth_data.counter == 0
                  and auth_data.is_user_verified() and auth_data.is_backup_eligible() and auth_data.is_backed_up())
        except Exception as error:  # noqa: BLE001 - any refusal is the failure being reported
            check(f"fido2 Fido2Server.register_complete accepts kdbx passkey register ({algorithm})", False,
                  repr(error))
            continue
        credentials = [auth_data.credential_data]
        options, state = server.authenticate_begin(credentials, user_verification=UserVerificationRequirement.REQUIRED)
        assertion = json.loads(kdbx("passkey", "assert", vault, entry, "--challenge",
                                    b64u(options.public_key.challenge), "--origin", ORIGIN).stdout)
        try:
            server.authenticate_complete(state, credentials, assertion)
            check(f"fido2 Fido2Server.authenticate_complete accepts kdbx passkey assert ({algorithm})",
                  unb64u(assertion["response"]["userHandle"]) == handle)
        except Exception as error:  # noqa: BLE001
            check(f"fido2 Fido2Server.authenticate_complete accepts kdbx passkey assert ({algorithm})", False,
                  repr(error))
        # A signature over another challenge must be refused (the check can fail).
        options2, state2 = server.authenticate_begin(credentials)
        try:
            server.authenticate_complete(state2, credentials, assertion)
            check(f"fido2 refuses an assertion replayed for another challenge ({algorithm})", False)
        except Exception:  # noqa: BLE001
            check(f"fido2 refuses an assertion replayed for another challenge ({algorithm})", True)
else:
    skip("fido2 Fido2Server", "pip package fido2 is not installed")

# 1b. py_webauthn.
if have("webauthn"):
    import webauthn
    from webauthn.helpers.structs import UserVerificationRequirement as UV

    for algorithm in ("es256", "eddsa"):
        challenge = os.urandom(32)
        handle = os.urandom(16)
        entry = f"Web/webauthn-{algorithm}"
        reg = kdbx("passkey", "register", vault, entry, "--rp", RP, "--user", f"bob-{algorithm}", "--algorithm",
                   algorithm, "--user-handle", b64u(handle), "--challenge", b64u(challenge), "--origin", ORIGIN,
                   "--json")
        registered[entry] = (json.loads(reg.stdout), handle)
        try:
            verified = webauthn.verify_registration_response(
                credential=reg.stdout, expected_challenge=challenge, expected_rp_id=RP, expected_origin=ORIGIN,
                require_user_verification=True)
            check(f"py_webauthn verify_registration_response accepts kdbx passkey register ({algorithm})",
                  getattr(verified.fmt, "value", verified.fmt) == "none" and verified.sign_count == 0 and verified.credential_backed_up)
        except Exception as error:  # noqa: BLE001
            check(f"py_webauthn verify_registration_response accepts kdbx passkey register ({algorithm})", False,
                  repr(error))
            continue
        challenge = os.urandom(32)
        out = kdbx("passkey", "assert", vault, entry, "--challenge", b64u(challenge), "--origin", ORIGIN).stdout
        try:
            result = webauthn.verify_authentication_response(
                credential=out, expected_challenge=challenge, expected_rp_id=RP, expected_origin=ORIGIN,
                credential_public_key=verified.credential_public_key, credential_current_sign_count=0,
                require_user_verification=True)
            check(f"py_webauthn verify_authentication_response accepts kdbx passkey assert ({algorithm})",
                  result.new_sign_count == 0 and result.user_verified)
        except Exception as error:  # noqa: BLE001
            check(f"py_webauthn verify_authentication_response accepts kdbx passkey assert ({algorithm})", False,
                  repr(error))
        try:
            webauthn.verify_authentication_response(
                credential=out, expected_challenge=os.urandom(32), expected_rp_id=RP, expected_origin=ORIGIN,
                credential_public_key=verified.credential_public_key, credential_current_sign_count=0)
            check(f"py_webauthn refuses the assertion for another challenge ({algorithm})", False)
        except Exception:  # noqa: BLE001
            check(f"py_webauthn refuses the assertion for another challenge ({algorithm})", True)
else:
    skip("py_webauthn", "pip package webauthn is not installed")

# 2. A passkey entry exactly as KeePassXC writes it, made by pykeepass with keys from `cryptography`.
if have("pykeepass") and have("cryptography") and have("webauthn") and have("cbor2"):
    import cbor2
    import webauthn
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    from pykeepass import create_database

    theirs = os.path.join(work, "keepassxc-style.kdbx")
    database = create_database(theirs, password=PASSWORD)
    group = database.add_group(database.root_group, "KeePassXC-Browser Passwords")
    keys = {}
    for algorithm, legacy in (("es256", False), ("eddsa", True)):
        key = ec.generate_private_key(ec.SECP256R1()) if algorithm == "es256" else ed25519.Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
        public = key.public_key()
        if algorithm == "es256":
            numbers = public.public_numbers()
            cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})
        else:
            raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            cose = cbor2.dumps({1: 1, 3: -8, -1: 6, -2: raw})
        credential_id, handle = os.urandom(32), os.urandom(32)
        title = f"{RP} (Passkey) {algorithm}"
        entry = database.add_entry(group, title, f"carol-{algorithm}", "", url=f"https://{RP}", tags=["Passkey"])
        # BrowserService::addPasskeyToEntry: set(name, value, protect).
        entry.set_custom_property("KPEX_PASSKEY_USERNAME", f"carol-{algorithm}")
        entry.set_custom_property("KPEX_PASSKEY_CREDENTIAL_ID", b64u(credential_id), protect=True)
        entry.set_custom_property("KPEX_PASSKEY_PRIVATE_KEY_PEM", pem, protect=True)
        entry.set_custom_property("KPEX_PASSKEY_RELYING_PARTY", RP)
        entry.set_custom_property("KPEX_PASSKEY_USER_HANDLE", b64u(handle), protect=True)
        if legacy:
            entry.set_custom_property("KPXC_PASSKEY_USERNAME", "carol-legacy")
        keys[title] = (cose, credential_id, handle, "carol-legacy" if legacy else f"carol-{algorithm}")
    # One in the recycle bin, which ls must leave out.
    binned = database.add_entry(group, "binned", "x", "")
    binned.set_custom_property("KPEX_PASSKEY_RELYING_PARTY", "binned.example")
    database.trash_entry(binned)
    database.save()

    listing = json.loads(kdbx("passkey", "ls", theirs, "--json").stdout)
    check("kdbx passkey ls lists the KeePassXC-style entries and not the recycle bin",
          sorted(item.get("path") for item in listing)
          == sorted(f"KeePassXC-Browser Passwords/{title}" for title in keys), json.dumps(listing))
    for title, (cose, credential_id, handle, user) in keys.items():
        algorithm = "ES256" if "es256" in title else "EdDSA"
        item = next((i for i in listing if i.get("path", "").endswith(title)), {})
        check(f"ls reads {algorithm}, user {user}, relying party (KeePassXC-style entry)",
              item.get("algorithm") == algorithm and item.get("userName") == user and item.get("relyingParty") == RP,
              json.dumps(item))
        exported = json.loads(kdbx("passkey", "export-public", theirs, f"KeePassXC-Browser Passwords/{title}",
                                   "--json").stdout)
        check(f"export-public gives cryptography's public key as COSE ({algorithm})",
              unb64u(exported["cose"]) == cose and "privateKeyPem" not in exported)
        challenge = os.urandom(32)
        out = kdbx("passkey", "assert", theirs, f"KeePassXC-Browser Passwords/{title}", "--challenge",
                   b64u(challenge), "--origin", "https://login." + RP).stdout
        try:
            webauthn.verify_authentication_response(
                credential=out, expected_challenge=challenge, expected_rp_id=RP, expected_origin="https://login." + RP,
                credential_public_key=cose, credential_current_sign_count=0, require_user_verification=True)
            parsed = json.loads(out)
            check(f"py_webauthn verifies kdbx's assertion with a KeePassXC-style {algorithm} key",
                  unb64u(parsed["id"]) == credential_id and unb64u(parsed["response"]["userHandle"]) == handle)
        except Exception as error:  # noqa: BLE001
            check(f"py_webauthn verifies kdbx's assertion with a KeePassXC-style {algorithm} key", False, repr(error))
else:
    skip("KeePassXC-style entry from pykeepass", "pykeepass, cryptography, webauthn or cbor2 is missing")

# 3. Our vault in keepassxc-cli and pykeepass.
PROTECTED = ["KPEX_PASSKEY_CREDENTIAL_ID", "KPEX_PASSKEY_PRIVATE_KEY_PEM", "KPEX_PASSKEY_USER_HANDLE"]
PLAIN = ["KPEX_PASSKEY_USERNAME", "KPEX_PASSKEY_RELYING_PARTY", "KPEX_PASSKEY_FLAG_BE", "KPEX_PASSKEY_FLAG_BS"]


def expected_attributes(response, handle, entry):
    user = ("alice-" if "fido2" in entry else "bob-") + entry.rsplit("-", 1)[1]
    return {"KPEX_PASSKEY_USERNAME": user, "KPEX_PASSKEY_RELYING_PARTY": RP, "KPEX_PASSKEY_FLAG_BE": "1",
            "KPEX_PASSKEY_FLAG_BS": "1", "KPEX_PASSKEY_CREDENTIAL_ID": response["id"],
            "KPEX_PASSKEY_USER_HANDLE": b64u(handle)}


def pem_matches(pem, response):
    if not have("cryptography"):
        return True
    from cryptography.hazmat.primitives import serialization
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return pem.startswith("-----BEGIN PRIVATE KEY-----") and spki == unb64u(response["response"]["publicKey"])


keepassxc = shutil.which("keepassxc-cli")
if not registered:
    skip("our vault in keepassxc-cli and pykeepass", "no passkey was registered (fido2 and webauthn missing)")
elif keepassxc is None:
    skip("our vault in keepassxc-cli", "keepassxc-cli is not installed (.ci/install-peers.sh)")
else:
    for entry, (response, handle) in registered.items():
        run = subprocess.run([keepassxc, "show", "-q", "-s", "--all", vault, entry], input=PASSWORD + "\n",
                             capture_output=True, text=True)
        shown = run.stdout
        expected = expected_attributes(response, handle, entry)
        values = {}
        for line in shown.splitlines():
            name, _, value = line.partition(": ")
            values[name] = value
        pem_start = shown.find("-----BEGIN PRIVATE KEY-----")
        pem_end = shown.find("-----END PRIVATE KEY-----")
        pem = shown[pem_start:pem_end + len("-----END PRIVATE KEY-----")] if pem_start >= 0 else ""
        check(f"keepassxc-cli show reads every passkey attribute of {entry}",
              run.returncode == 0 and all(values.get(k) == v for k, v in expected.items()) and pem_matches(pem, response),
              run.stderr.strip() + " " + json.dumps({k: values.get(k) for k in expected}))
        hidden = subprocess.run([keepassxc, "show", "-q", "--all", vault, entry], input=PASSWORD + "\n",
                                capture_output=True, text=True).stdout
        check(f"keepassxc-cli shows the key, credential ID and user handle as protected ({entry})",
              all(f"{name}: PROTECTED" in hidden for name in PROTECTED)
              and all(f"{name}: PROTECTED" not in hidden for name in PLAIN), hidden)

if registered and have("pykeepass"):
    from pykeepass import PyKeePass

    database = PyKeePass(vault, password=PASSWORD)
    for entry, (response, handle) in registered.items():
        found = database.find_entries(path=entry.split("/"), first=True)
        properties = found.custom_properties if found else {}
        expected = expected_attributes(response, handle, entry)
        check(f"pykeepass reads every passkey attribute of {entry}",
              found is not None and all(properties.get(k) == v for k, v in expected.items())
              and pem_matches(properties.get("KPEX_PASSKEY_PRIVATE_KEY_PEM", ""), response)
              and "Passkey" in (found.tags or []), json.dumps({k: properties.get(k) for k in expected}))
        check(f"pykeepass sees Protected=True on exactly the key, credential ID and user handle ({entry})",
              found is not None and all(found.is_custom_property_protected(k) for k in PROTECTED)
              and not any(found.is_custom_property_protected(k) for k in PLAIN))
elif registered:
    skip("our vault in pykeepass", "pykeepass is not installed")

shutil.rmtree(work, ignore_errors=True)
print(f"passkeys: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
