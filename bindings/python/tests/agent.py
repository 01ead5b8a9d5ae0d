#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""An agent for the bridge tests: newline-delimited JSON on stdin and stdout.

Each line in is {"prompt": P}; each line out is a JSON object:
  any P          {"reply": P, "user": ..., "cwd": ..., "argv": [...], "env": {...}}
  "slow"         {"started": true}, then a 60 s turn that SIGINT interrupts:
                 {"interrupted": true}, and the agent goes on
  "big"          10 MiB of "x" then a newline (not JSON: the bridge counts bytes)
  "exit N"       exits with N
"""
import json
import os
import pwd
import signal
import sys
import time


class Interrupted(Exception):
    pass


def on_int(signum, frame):
    raise Interrupted()


def say(obj):
    """One whole line: SIGINT waits until it is out (and then interrupts the turn)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def one_turn(p):
    if p == "slow":
        say({"started": True})
        time.sleep(60)
        say({"reply": "slept"})
    elif p == "big":
        out = sys.stdout.buffer
        chunk = b"x" * 65536
        for _ in range(160):
            out.write(chunk)
        out.write(b"\n")
        out.flush()
    elif p.startswith("exit "):
        sys.exit(int(p[5:]))
    else:
        say({"reply": p, "user": pwd.getpwuid(os.getuid()).pw_name, "cwd": os.getcwd(),
             "argv": sys.argv[1:], "env": {k: os.environ.get(k) for k in ("TOKEN", "LANG")}})


def main():
    signal.signal(signal.SIGINT, on_int)
    while True:
        try:
            line = sys.stdin.readline()
            if not line:
                return
            one_turn(json.loads(line)["prompt"])
        except Interrupted:  # between turns too: an interrupt never ends the agent
            say({"interrupted": True})


if __name__ == "__main__":
    main()
