#!/usr/bin/env python3
"""Writes the import fixtures of .ci/cli-tests.sh (section #24) into the folder given as the only argument.

- other-manager.csv: a CSV export with another manager's column names (RFC 4180 quoting: commas, quotes and a line
  break inside fields), imported with --columns; one column (PIN) is left unmapped.
- unknown-columns.csv: a CSV whose header names no column we know (refused without --columns).
- open-quote.csv, ragged.csv: malformed CSV (a quoted field never closed; a row with fewer fields).
- export.1pux: a 1Password unencrypted export following 1Password's published 1PUX description (1Password Support,
  "About the 1Password Unencrypted Export format"): a zip archive (PKWARE APPNOTE; export.data deflated, the
  attachment stored) with export.attributes, export.data (one account, one vault: a login with loginFields, urls,
  tags, a section with a concealed field and a TOTP; a credit card; an identity with an address and an email; a
  password; a document with its file in files/; an archived secure note) and files/doc1__passport.txt.
- truncated.1pux, bad-crc.1pux: the same archive cut in half, and with one byte of the attachment changed.
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

def field(title, kind, value, field_id=""):
    return {"title": title, "id": field_id, "value": {kind: value}, "guarded": False, "multiline": False,
            "dontGenerate": False, "inputTraits": {"keyboard": "default", "correction": "default",
                                                  "capitalization": "default"}}


onepux = {"accounts": [{
    "attrs": {"accountName": "Ada", "name": "Ada Lovelace", "avatar": "", "email": "ada@example.org",
              "uuid": "ACCOUNTUUID", "domain": "https://my.1password.com/"},
    "vaults": [{
        "attrs": {"uuid": "vault1", "desc": "", "avatar": "", "name": "Personal", "type": "P"},
        "items": [
            {"uuid": "it1", "favIndex": 1, "createdAt": 1672628645, "updatedAt": 1714557600, "state": "active",
             "categoryUuid": "001",
             "details": {"loginFields": [
                 {"value": "octocat", "id": "", "name": "username", "fieldType": "T", "designation": "username"},
                 {"value": "correct horse", "id": "", "name": "password", "fieldType": "P",
                  "designation": "password"},
                 {"value": "ABC-123", "id": "", "name": "account", "fieldType": "T", "designation": ""}],
                 "notesPlain": "two-factor on",
                 "sections": [{"title": "Security", "name": "sec", "fields": [
                     field("Recovery code", "concealed", "1111-2222"),
                     field("one-time password", "totp", "otpauth://totp/GitHub:octocat?secret=JBSWY3DPEHPK3PXP"),
                     field("Team", "string", "core")]}],
                 "passwordHistory": [{"value": "older horse", "time": 1660000000},
                                     {"value": "oldest horse", "time": 1650000000}]},
             "overview": {"subtitle": "octocat", "title": "GitHub", "url": "https://github.com/login",
                          "urls": [{"label": "", "url": "https://github.com/login"},
                                   {"label": "gist", "url": "https://gist.github.com"}],
                          "tags": ["dev", "work"]}},
            {"uuid": "it2", "favIndex": 0, "createdAt": 1672628645, "updatedAt": 1672628645, "state": "active",
             "categoryUuid": "002",
             "details": {"loginFields": [], "notesPlain": "", "sections": [{"title": "", "name": "", "fields": [
                 field("cardholder name", "string", "Ada Lovelace", "cardholder"),
                 field("type", "creditCardType", "visa", "type"),
                 field("number", "creditCardNumber", "4111111111111111", "ccnum"),
                 field("verification number", "concealed", "123", "cvv"),
                 field("expiry date", "monthYear", 203012, "expiry")]}]},
             "overview": {"subtitle": "4111 ****", "title": "Visa", "url": "", "tags": []}},
            {"uuid": "it3", "favIndex": 0, "createdAt": 1672628645, "updatedAt": 1672628645, "state": "active",
             "categoryUuid": "004",
             "details": {"loginFields": [], "notesPlain": "", "sections": [{"title": "Identification", "fields": [
                 field("first name", "string", "Ada"), field("last name", "string", "Lovelace"),
                 field("birth date", "date", 1640995200)]}, {"title": "Address", "fields": [
                 field("address", "address", {"street": "1 Main St", "city": "London", "country": "gb",
                                              "zip": "N1", "state": ""}),
                 field("email", "email", {"email_address": "ada@example.org", "provider": None})]}]},
             "overview": {"title": "Me", "url": "", "tags": []}},
            {"uuid": "it4", "favIndex": 0, "createdAt": 1672628645, "updatedAt": 1672628645, "state": "active",
             "categoryUuid": "005", "details": {"loginFields": [], "notesPlain": "", "sections": [],
                                                "password": "wifi-pass"},
             "overview": {"title": "Router", "url": "", "tags": []}},
            {"uuid": "it5", "favIndex": 0, "createdAt": 1672628645, "updatedAt": 1672628645, "state": "active",
             "categoryUuid": "006",
             "details": {"loginFields": [], "notesPlain": "scanned", "sections": [],
                         "documentAttributes": {"fileName": "passport.txt", "documentId": "doc1",
                                                "decryptedSize": 15}},
             "overview": {"title": "Passport scan", "url": "", "tags": []}},
            {"uuid": "it6", "favIndex": 0, "createdAt": 1672628645, "updatedAt": 1672628645, "state": "archived",
             "categoryUuid": "003", "details": {"loginFields": [], "notesPlain": "old note", "sections": []},
             "overview": {"title": "Old", "url": "", "tags": []}},
        ]}]}]}
export_data = json.dumps(onepux, indent=2).encode()
with zipfile.ZipFile(os.path.join(out, "export.1pux"), "w") as archive:
    archive.writestr("export.attributes", json.dumps(
        {"version": 3, "description": "1Password Unencrypted Export", "createdAt": 1714557600}))
    archive.writestr("export.data", export_data, compress_type=zipfile.ZIP_DEFLATED)
    archive.writestr("files/doc1__passport.txt", b"passport 123456", compress_type=zipfile.ZIP_STORED)
whole = open(os.path.join(out, "export.1pux"), "rb").read()
# Malformed archives: cut short (no end of central directory), and one data byte changed (CRC-32 fails).
open(os.path.join(out, "truncated.1pux"), "wb").write(whole[:len(whole) // 2])
data_at = whole.index(b"passport 123456")
open(os.path.join(out, "bad-crc.1pux"), "wb").write(whole[:data_at] + b"P" + whole[data_at + 1:])

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
