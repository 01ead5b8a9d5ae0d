#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""syslog_listener.py SOCKET CAPTURE - a minimal syslogd for the audit tests.

Binds a datagram socket at SOCKET (world-writable, as /dev/log is), asks
the kernel for each sender's credentials (SO_PASSCRED), and appends every
datagram to CAPTURE as one JSON line: {"uid": ..., "pid": ..., "data":
the bytes as latin-1}. It writes READY to stdout once bound and runs until
SIGTERM.
"""
import json
import os
import signal
import socket
import struct
import sys


def main():
    path, capture = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(path)
    os.chmod(path, 0o666)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print("READY", flush=True)
    creds_size = struct.calcsize("3i")
    with open(capture, "a", encoding="ascii") as out:
        while True:
            data, anc, _, _ = s.recvmsg(1 << 20, socket.CMSG_SPACE(creds_size))
            pid = uid = -1
            for level, kind, body in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid, uid, _ = struct.unpack("3i", body[:creds_size])
            out.write(json.dumps({"uid": uid, "pid": pid, "data": data.decode("latin-1")}) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
