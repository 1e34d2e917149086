#!/usr/bin/env python3
"""Writes Vectors/strength/passwords.txt: 200 passwords, one a line, that span every zxcvbn rating (score 0 to 4),
for the comparison of `PasswordStrength` with Python zxcvbn (Tests/KDBXTests/PasswordStrengthTests.swift).

The passwords are made here from a fixed seed: common passwords from zxcvbn's list, words and names with
capitals, l33t, reversal, years and digits, keyboard runs, dates, repeats, sequences, word combinations and random
strings. With zxcvbn installed (pip install zxcvbn), the script checks that every score has at least 20 passwords
and prints the counts. Run: python3 Vectors/tools/strength_passwords.py > Vectors/strength/passwords.txt
"""
import random
import sys

from zxcvbn import zxcvbn
from zxcvbn.frequency_lists import FREQUENCY_LISTS

rng = random.Random(24)
common = FREQUENCY_LISTS["passwords"]
english = FREQUENCY_LISTS["english_wikipedia"]
names = FREQUENCY_LISTS["female_names"] + FREQUENCY_LISTS["male_names"]
surnames = FREQUENCY_LISTS["surnames"]
leet = {"a": "@", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7"}

out = []
out += [common[rng.randrange(0, 2000)] for _ in range(25)]
out += [common[rng.randrange(2000, 12000)] for _ in range(5)]
for _ in range(15):
    w = english[rng.randrange(100, 8000)]
    out.append(rng.choice([w.capitalize(), w.upper(), w[::-1], "".join(leet.get(c, c) for c in w), w + "!"]))
for _ in range(15):
    out.append(rng.choice(names).capitalize() + str(rng.randrange(1950, 2020)))
for _ in range(5):
    out.append(rng.choice(surnames) + str(rng.randrange(0, 100)))
out += ["qwerty", "asdfgh", "zxcvbnm", "1qaz2wsx", "qazwsxedc", "poiuytrewq", "mnbvcxz", "!QAZ2wsx", "1q2w3e4r5t",
        "asdfjkl;", "7894561230", "159753", "3698741", "zaq12wsx", "QWErty!@#", "aoeuidhtns", "[];',./", "qwer1234",
        "wsxcde", "plmoknijb"]
for _ in range(10):
    y, m, d = rng.randrange(1950, 2030), rng.randrange(1, 13), rng.randrange(1, 29)
    out.append(rng.choice(["%02d%02d%d" % (d, m, y), "%d-%02d-%02d" % (y, m, d), "%d/%d/%02d" % (m, d, y % 100),
                           "%02d.%02d.%d" % (d, m, y)]))
out += ["aaaaaa", "zzzzzzzzzz", "111111111", "abcabcabc", "ababababab", "abcdefg", "987654321", "13579", "ZYXWVU",
        "aaaBBBccc", "xyzxyzxyz123", "hellohellohello", "121212", "2468", "acegikmo"]
for _ in range(25):
    k = rng.randrange(2, 5)
    words = [english[rng.randrange(0, 5000)] for _ in range(k)]
    out.append(rng.choice(["", " ", "-", "."]).join(words))
alphabets = ["abcdefghijklmnopqrstuvwxyz", "0123456789", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*-_=+"]
while len(out) < 200:
    a = rng.choice(alphabets)
    out.append("".join(rng.choice(a) for _ in range(rng.choice([5, 6, 7, 7, 7, 8, 8, 9, 9, 9, 10, 12, 16]))))
assert len(out) == 200 and all("\n" not in p and p == p.strip() and p for p in out)
counts = [0] * 5
for p in out:
    counts[zxcvbn(p)["score"]] += 1
print("zxcvbn scores 0-4: %s" % counts, file=sys.stderr)
assert min(counts) >= 20, counts
print("\n".join(out))
