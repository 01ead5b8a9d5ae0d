#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""audit_records.py CAPTURE EXPR - the ruas records a test's syslog received.

Parses every datagram of CAPTURE (syslog_listener.py's) whose tag is
"ruas[PID]:" strictly: the RFC 3164 header, then "KIND key=value ...",
where a value is a bare token, a quoted string with \\" \\\\ and \\xHH escapes,
or a list [v,...] of those. Anything else in a ruas record fails. EXPR, a
Python expression over `recs` (a list of dicts: kind, f (the fields, in
order, as a dict of str or list), pri, pid, uid, raw), must be true; the
exit status says so, and on failure the records are printed.
"""
import codecs
import json
import re
import sys

# The library's JSON keeps valid UTF-8 and gives any other byte as U+00XX.
codecs.register_error("ruas_bytes", lambda e: ("".join(chr(b) for b in e.object[e.start:e.end]), e.end))


def as_json_string(v):
    """A syslog value (bytes as latin-1 characters) as the JSON side spells it."""
    return v.encode("latin-1").decode("utf-8", "ruas_bytes")

HEADER = re.compile(r"^<(\d+)>([A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d) ruas\[(\d+)\]: (.*)$", re.S)
TOKEN = re.compile(r"[A-Za-z0-9_.:/@+-]+")


def value(s, i):
    if s.startswith('"', i):
        out, i = [], i + 1
        while True:
            c = s[i]
            if c == '"':
                return "".join(out), i + 1
            if c == "\\":
                n = s[i + 1]
                if n in '"\\':
                    out.append(n)
                    i += 2
                elif n == "x":
                    out.append(chr(int(s[i + 2:i + 4], 16)))
                    i += 4
                else:
                    raise ValueError("bad escape at %d" % i)
            elif ord(c) < 0x20 or ord(c) > 0x7E:
                raise ValueError("raw byte 0x%02x in a quoted value" % ord(c))
            else:
                out.append(c)
                i += 1
    m = TOKEN.match(s, i)
    if not m:
        raise ValueError("no value at %d: %r" % (i, s[i:i + 20]))
    return m.group(0), m.end()


def parse_line(line):
    m = re.match(r"^(start|end|check|audit)", line)
    if not m:
        raise ValueError("no kind: %r" % line[:40])
    kind, i, fields = m.group(1), m.end(), {}
    while i < len(line):
        k = re.compile(r" ([a-z_]+)=").match(line, i)
        if not k:
            raise ValueError("no field at %d: %r" % (i, line[i:i + 30]))
        key, i = k.group(1), k.end()
        if key in fields:
            raise ValueError("field %s twice" % key)
        if line.startswith("[", i):
            items, i = [], i + 1
            while not line.startswith("]", i):
                if items:
                    if not line.startswith(",", i):
                        raise ValueError("no comma at %d" % i)
                    i += 1
                v, i = value(line, i)
                items.append(v)
            fields[key], i = items, i + 1
        else:
            fields[key], i = value(line, i)
    return kind, fields


def records(path):
    recs = []
    with open(path, encoding="ascii") as f:
        for n, raw in enumerate(f):
            d = json.loads(raw)
            m = HEADER.match(d["data"])
            if not m:
                continue  # another program's line (PAM modules log too)
            body = m.group(4)
            if "\n" in body or "\r" in body:
                raise ValueError("record %d holds a line break: %r" % (n, body))
            kind, fields = parse_line(body)
            recs.append({"kind": kind, "f": fields, "pri": int(m.group(1)),
                         "pid": int(m.group(3)), "uid": d["uid"], "raw": d["data"]})
    return recs


def json_lines(path):
    """Every line of a JSON lines file, each parsed (a line that does not parse fails)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text and not text.endswith("\n"):
        raise ValueError("%s does not end with a newline" % path)
    return [json.loads(line) for line in text.splitlines()]


def same(obj, rec):
    """Does JSON object obj say what syslog record rec says, field for field?"""
    if obj.get("event") != rec["kind"] or set(obj) - {"event"} != set(rec["f"]):
        return False
    for key, v in rec["f"].items():
        o = obj[key]
        if v == "-" and o is None:
            continue
        if key.endswith("_len") and isinstance(v, list):
            if {str(k): str(n) for k, n in o.items()} != dict(x.split(":") for x in v):
                return False
        elif isinstance(v, list):
            if not isinstance(o, list) or [str(x) for x in o] != [as_json_string(x) for x in v]:
                return False
        elif str(o) != as_json_string(v):
            return False
    return True


def unmatched(objs, recs):
    """The objects of objs that no record of recs says field for field."""
    return [o for o in objs if not any(same(o, r) for r in recs)]


def main():
    recs = records(sys.argv[1])
    env = {"recs": recs, "json": json, "re": re, "json_lines": json_lines, "same": same,
           "unmatched": unmatched}
    ok = eval(sys.argv[2], env)  # the test's own expression
    if isinstance(ok, list):  # a list of what is wrong: empty when nothing is
        for x in ok:
            print("# wrong:", json.dumps(x)[:800], file=sys.stderr)
        ok = not ok
    if not ok:
        for r in recs:
            print("#", r["raw"][:600], file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
