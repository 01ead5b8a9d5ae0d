#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""forge_start.py - what a hostile login file of the target's can send on
descriptor 3, the channel between the outer and the inner ruas-exec, from a
process of its own (not the login shell's): a START (src/proto/agent.h) the
inner helper never sent.

    forge_start.py MODE

  nofd    START_EXEC with no descriptor
  failed  START_FAILED, ENOENT
  closed  START_EXEC with the read end of a pipe whose write end is closed
          (its end of file at once: "the exec is done")
  held    START_EXEC with the read end of a pipe whose write end a
          background `sleep 1000` keeps (no end of file while it runs)
  zero    START_EXEC with /dev/zero
  empty   a record of no bytes (read as the channel's end were it not told
          apart), so that the real START would go unheard

Exits 0 once sent; the login file then goes on (or not).
"""
import os
import socket
import struct
import subprocess
import sys

CHANNEL_START = 11
START_EXEC, START_FAILED = 1, 2
ENOENT = 2


def message(state, errnum):
    body = struct.pack(">Bi", state, errnum)
    return struct.pack(">IB", len(body), CHANNEL_START) + body


def main():
    mode = sys.argv[1]
    chan = socket.socket(fileno=os.dup(3))
    if mode == "nofd":
        chan.send(message(START_EXEC, 0))
    elif mode == "failed":
        chan.send(message(START_FAILED, ENOENT))
    elif mode in ("closed", "held"):
        r, w = os.pipe()
        if mode == "held":
            subprocess.Popen(["sleep", "1000"], pass_fds=(w,), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        socket.send_fds(chan, [message(START_EXEC, 0)], [r])
    elif mode == "empty":
        chan.send(b"")
    elif mode == "zero":
        z = os.open("/dev/zero", os.O_RDONLY)
        socket.send_fds(chan, [message(START_EXEC, 0)], [z])
    else:
        sys.exit("forge_start.py: unknown mode " + mode)


main()
