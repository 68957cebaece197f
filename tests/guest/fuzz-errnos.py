#!/usr/bin/env python3
"""Checks abi_fuzz's errno histogram against kstats(4)'s ERRORS section.

Each ERRORS entry (.TP, .B ENAME, text) applies to the requests its text
names in capitals (CREATE, TRACE, ...), to every request if it says "any
request" or names none, and to the mutating ones if it says "mutating".
A (request, errno) the fuzzer saw that no entry documents fails the check.
Prints the histogram as a table either way.

Usage: fuzz-errnos.py MAN_PAGE < abi_fuzz output
"""
import re
import sys

REQUESTS = ["INFO", "CREATE", "DELETE", "LIST", "CONTROL", "SNAPSHOT",
            "RECORD", "TRACE", "UNTRACE", "OUTLIERS"]
MUTATING = ["CREATE", "DELETE", "CONTROL", "RECORD", "TRACE", "UNTRACE"]


def documented(man):
    text = open(man, encoding="utf-8").read()
    section = text.split(".SH ERRORS", 1)[1].split("\n.SH ", 1)[0]
    allowed = {}
    for entry in section.split(".TP\n")[1:]:
        lines = entry.strip().split("\n")
        name = lines[0].split()[-1]
        body = " ".join(re.sub(r"^\.[A-Z]+ ?", "", l) for l in lines[1:])
        named = {r for r in REQUESTS if re.search(r"\b%s\b" % r, body)}
        if "mutating" in body.lower():
            named |= set(MUTATING)
        if re.search(r"\bany request\b", body, re.I) or not named:
            named |= set(REQUESTS) | {"UNKNOWN"}
        allowed.setdefault(name, set()).update(named)
    return allowed


def main():
    allowed = documented(sys.argv[1])
    bad = []
    rows = []
    for line in sys.stdin:
        print(line, end="")
        m = re.match(r"ERRNO (\S+) (\S+) (\d+)$", line.strip())
        if not m:
            continue
        req, err, count = m.group(1), m.group(2), int(m.group(3))
        ok = (err == "0" and req != "UNKNOWN") or req in allowed.get(err, ())
        rows.append((req, err, count, ok))
        if not ok:
            bad.append("%s %s" % (req, err))
    print("# %-9s %-12s %9s" % ("request", "errno", "calls"))
    for req, err, count, ok in rows:
        print("# %-9s %-12s %9d%s" % (req, err, count,
                                      "" if ok else "  NOT DOCUMENTED in kstats(4)"))
    if not rows:
        print("# no histogram in the input")
        return 1
    if bad:
        print("# undocumented: " + ", ".join(bad))
        return 1
    print("# every errno seen is documented for its request")
    return 0


if __name__ == "__main__":
    sys.exit(main())
