#!/usr/bin/env python3
"""Writes the import fixtures of .ci/cli-tests.sh (section #24) into the folder given as the only argument.

- other-manager.csv: a CSV export with another manager's column names (RFC 4180 quoting: commas, quotes and a line
  break inside fields), imported with --columns; one column (PIN) is left unmapped.
- unknown-columns.csv: a CSV whose header names no column we know (refused without --columns).
- open-quote.csv, ragged.csv: malformed CSV (a quoted field never closed; a row with fewer fields).
- export.1pux: a zip archive (1Password's export container, PKWARE APPNOTE local file header) holding
  export.data, to check that zip archives are named and refused.
- bitwarden.json, bitwarden-bad.json: a Bitwarden unencrypted JSON export following Bitwarden's published
  format (Bitwarden Help, "Condition a Bitwarden .json file": folders; items of type 1 login with uris and totp,
  2 secure note, 3 card, 4 identity, 5 SSH key; fields of type 0 text, 1 hidden, 2 boolean, 3 linked; favorite,
  reprompt, passwordHistory), written with ASCII escapes (backslash-u, surrogate pairs for the emoji), and a truncated
  one.
- bitwarden-org.json: an organization export (collections instead of folders, items with collectionIds).
- bitwarden-encrypted.json: the shape of an encrypted export ("encrypted": true), which is refused.
Run: python3 Vectors/tools/import_fixtures.py OUTDIR
"""
import csv
import io
import json
import os
import sys
import zipfile

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

buffer = io.StringIO()
writer = csv.writer(buffer, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
writer.writerow(["Folder", "Name", "Login Name", "Secret", "Web Site", "Comments", "PIN"])
writer.writerow(["Work", "Intranet", "ada", 's3cret, "quoted"', "https://intra.example", "first line\nsecond line", ""])
writer.writerow(["Work", "Mail", "ada@example.org", "m4il", "https://mail.example", "", ""])
writer.writerow(["", "Bank", "ada", "b@nk", "https://bank.example", "", "1234"])
open(os.path.join(out, "other-manager.csv"), "w", newline="").write(buffer.getvalue())
open(os.path.join(out, "open-quote.csv"), "w").write('Title,Username,Password\nMail,ada,"never closed\n')
open(os.path.join(out, "unknown-columns.csv"), "w").write("Label,Secret,Site\nMail,m4il,https://mail.example\n")
open(os.path.join(out, "ragged.csv"), "w").write("Title,Username,Password\nMail,ada\n")
with zipfile.ZipFile(os.path.join(out, "export.1pux"), "w", zipfile.ZIP_DEFLATED) as archive:
    archive.writestr("export.data", json.dumps({"accounts": []}))

bitwarden = {
    "encrypted": False,
    "folders": [
        {"id": "f1", "name": "Internet"},
        {"id": "f2", "name": "Finance/Cards"},
        {"id": "f3", "name": "Empty"},
    ],
    "items": [
        {"id": "i1", "folderId": "f1", "type": 1, "name": "GitHub", "notes": "two-factor on", "favorite": True,
         "fields": [{"name": "Recovery", "value": "1111-2222", "type": 1},
                    {"name": "Team", "value": "core", "type": 0},
                    {"name": "Admin", "value": "true", "type": 2}],
         "login": {"uris": [{"match": None, "uri": "https://github.com/login"},
                            {"match": None, "uri": "https://gist.github.com"}],
                   "username": "octocat", "password": "correct horse", "totp": "JBSWY3DPEHPK3PXP"},
         "revisionDate": "2024-05-01T10:00:00.000Z", "creationDate": "2023-01-02T03:04:05.000Z"},
        {"id": "i2", "folderId": None, "type": 2, "name": "Wi-Fi", "notes": "door code 4711",
         "secureNote": {"type": 0}},
        {"id": "i3", "folderId": "f2", "type": 3, "name": "Visa",
         "card": {"cardholderName": "Ada Lovelace", "brand": "Visa", "number": "4111111111111111",
                  "expMonth": "12", "expYear": "2030", "code": "123"}},
        {"id": "i4", "folderId": None, "type": 4, "name": "Me",
         "identity": {"title": "Dr", "firstName": "Ada", "lastName": "Lovelace", "email": "ada@example.org",
                      "phone": "+44 20 0000", "city": "London", "username": "ada"}},
        {"id": "i5", "folderId": "f1", "type": 5, "name": "Server key",
         "sshKey": {"privateKey": "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----",
                    "publicKey": "ssh-ed25519 AAAAC3Nza", "keyFingerprint": "SHA256:abc"}},
        {"id": "i6", "folderId": "f1", "type": 1, "name": "Caf\u00e9 \U0001F511", "reprompt": 1,
         "notes": "line one\nline \"two\"\ttabbed",
         "fields": [{"name": "Linked", "value": None, "type": 3, "linkedId": 100}],
         "passwordHistory": [{"lastUsedDate": "2022-01-01T00:00:00.000Z", "password": "older"}],
         "login": {"uris": [{"match": 0, "uri": "https://a.example"}, {"match": None, "uri": "https://b.example"},
                            {"match": 3, "uri": "androidapp://com.example"}],
                   "username": "z\u00fcrich", "password": "p\u00e4ss \\ \"q\"",
                   "totp": "otpauth://totp/Cafe:me?secret=JBSWY3DPEHPK3PXP&issuer=Cafe&digits=8"}},
    ],
}
open(os.path.join(out, "bitwarden.json"), "w").write(json.dumps(bitwarden, indent=2))
open(os.path.join(out, "bitwarden-bad.json"), "w").write(json.dumps(bitwarden)[:200])
organization = {
    "encrypted": False,
    "collections": [{"id": "c1", "organizationId": "o1", "name": "Shared/Ops", "externalId": None}],
    "items": [
        {"id": "j1", "organizationId": "o1", "collectionIds": ["c1"], "folderId": None, "type": 1, "name": "VPN",
         "login": {"uris": [], "username": "ops", "password": "vpn-pass", "totp": None}},
    ],
}
open(os.path.join(out, "bitwarden-org.json"), "w").write(json.dumps(organization, indent=2))
open(os.path.join(out, "bitwarden-encrypted.json"), "w").write(json.dumps(
    {"encrypted": True, "encKeyValidation_DO_NOT_EDIT": "2.abc|def|ghi", "folders": [], "items": []}))
