# SPDX-License-Identifier: ISC
"""signalspawn.py - a supervisor that signals its agent as a Popen user would
(bindings/python), for issue 26's item 3: a kill is a kill, and a signal
sent to child.pid reaches the agent.

    signalspawn.py CONF PROJECT kill|pidint

The agent prints "ready" once its traps are set, and "got INT" / "got TERM"
when one runs. kill: child.kill(), then how the run ended and how long it
took ("rc=-9 seconds=0.12"). pidint: os.kill(child.pid, SIGINT), waits for
"got INT" and that the run goes on, then ends it with child.kill();
prints what the agent said and "agent_pid=N cmdline=..." (the agent's own
pid as this host sees it, read from /proc while it runs).
"""
import os
import signal
import sys
import time

import ruas


def line(child, deadline):
    """The agent's next line of stdout, or "" at its end or after the deadline."""
    import select
    buf = b""
    while time.monotonic() < deadline:
        r, _, _ = select.select([child.stdout], [], [], 0.1)
        if not r:
            continue
        c = os.read(child.stdout.fileno(), 1)
        if not c or c == b"\n":
            return buf.decode()
        buf += c
    return buf.decode()


def main(conf, project, mode):
    cfg = ruas.Config.load(conf)
    child = cfg.spawn(project, stdin=ruas.DEVNULL, stdout=ruas.PIPE, stderr=ruas.DEVNULL,
                      pty=False)
    deadline = time.monotonic() + 30
    if line(child, deadline) != "ready":
        print("the agent never said ready")
        child.kill()
        child.wait()
        return 2
    if mode == "kill":
        t0 = time.monotonic()
        child.kill()
        rc = child.wait()
        print("rc=%d seconds=%.2f" % (rc, time.monotonic() - t0))
        rest = child.stdout.read().decode()
        print("said=%s" % rest.replace("\n", ";"))
        return 0
    try:
        with open("/proc/%d/cmdline" % child.agent_pid, "rb") as f:
            cmdline = f.read().replace(b"\0", b" ").decode().strip()
    except OSError as e:
        cmdline = "unreadable: %s" % e
    print("agent_pid=%d pid=%d cmdline=%s" % (child.agent_pid, child.pid, cmdline))
    os.kill(child.pid, signal.SIGINT)
    said = line(child, time.monotonic() + 10)
    print("said=%s running=%s" % (said, child.poll() is None))
    child.kill()
    print("rc=%d" % child.wait())
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
