#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""cred_flood.py @NAME: as a stranger to a run, open 400 connections to its
credential socket without a word, read what the first five are told, then
try to bind the socket's name; prints REFUSED (or what came) and BIND
OK / BIND ERRNO (tests/integration/credentials.sh)."""
import errno
import socket
import sys

name = "\0" + sys.argv[1][1:]
socks = []
for _ in range(400):
    s = socket.socket(socket.AF_UNIX)
    s.connect(name)  # blocking: a full backlog waits for the init to accept
    s.settimeout(30)
    socks.append(s)
got = [s.recv(200) for s in socks[:5]]
b = socket.socket(socket.AF_UNIX)
try:
    b.bind(name)
    print("BIND OK")
except OSError as e:
    print("BIND " + errno.errorcode[e.errno])
print("REFUSED" if all(g.startswith(b"error refused") for g in got) else "ANSWERS %r" % got)
