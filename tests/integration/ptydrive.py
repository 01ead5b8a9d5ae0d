#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""ptydrive.py - run a command on a fresh pty, as an operator's terminal.

usage: ptydrive.py [--rows R] [--cols C] [--timeout S] [--log FILE]
                   [--stty FILE] SCRIPT -- CMD...

The command gets a new session whose controlling terminal is the slave
(stdin, stdout and stderr too). SCRIPT holds one step a line:
  send TEXT        TEXT with Python escapes (\\n, \\x03 for Ctrl-C)
  sendfile PATH    the bytes of PATH, as a paste
  expect TEXT      wait until the output since the last expect has TEXT
  sleep SECS
  resize ROWS COLS the window size (the command's job gets SIGWINCH)
  kill SIG         the signal (a name, e.g. TERM) to the command
  killpat SIG USER PAT
                   the signal to USER's processes whose cmdline matches
                   PAT (never another's: suites run side by side)
  hangup           the terminal goes away (the master and the slave are
                   closed: the kernel hangs up the command's session)
  wait             wait for the command's end
Prints "rc=N" (128+N for signal N) and, with --stty, writes the slave's
`stty -a` before and after to FILE.before and FILE.after. Exits 0, or 1
when a step failed (timeout), saying which.
"""
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
import fcntl


def winsize(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


class Drive:
    def __init__(self, argv, rows, cols, timeout, log):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        winsize(self.slave, rows, cols)
        self.timeout = timeout
        self.out = b""
        self.mark = 0
        self.log = log
        self.status = None
        self.hung = False
        # Before the command starts, which may change the modes at once (readline does).
        self.before = stty(self.path)
        self.pid = os.fork()
        if self.pid == 0:
            # A fresh login's signal state, as a terminal emulator or login(1)
            # gives: whatever ran this (nohup ignores SIGHUP) must not decide
            # what a hangup or Ctrl-C does to the command.
            for sig in signal.valid_signals():
                if sig not in (signal.SIGKILL, signal.SIGSTOP):
                    try:
                        signal.signal(sig, signal.SIG_DFL)
                    except (OSError, ValueError):
                        pass
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.setsid()
            fd = os.open(self.path, os.O_RDWR)  # becomes the controlling terminal
            for i in range(3):
                os.dup2(fd, i)
            os.closerange(3, 1024)
            os.execvp(argv[0], argv)
        os.set_blocking(self.master, False)

    def pump(self, wait):
        r, w, _ = select.select([self.master] if self.master >= 0 else [], [], [], wait)
        if r:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                data = b""
            self.out += data
            if self.log:
                self.log.write(data)
                self.log.flush()
        if self.status is None:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.status = st

    def send(self, data):
        while data:
            try:
                n = os.write(self.master, data)
                data = data[n:]
            except BlockingIOError:
                pass
            self.pump(0.01)

    def expect(self, text):
        end = time.monotonic() + self.timeout
        want = text.encode()
        while time.monotonic() < end:
            i = self.out.find(want, self.mark)
            if i >= 0:
                self.mark = i + len(want)
                return True
            self.pump(0.05)
        return False

    def wait(self):
        end = time.monotonic() + self.timeout
        while self.status is None and time.monotonic() < end:
            self.pump(0.05)
        for _ in range(5):  # what is left
            self.pump(0.02)
        return self.status is not None


def sig_of(name):
    return getattr(signal, "SIG" + name)


def step(d, line):
    verb, _, arg = line.partition(" ")
    if verb == "send":
        d.send(arg.encode("latin-1").decode("unicode_escape").encode("latin-1"))
    elif verb == "sendfile":
        with open(arg, "rb") as f:
            d.send(f.read())
    elif verb == "expect":
        return d.expect(arg.encode("latin-1").decode("unicode_escape"))
    elif verb == "sleep":
        end = time.monotonic() + float(arg)
        while time.monotonic() < end:
            d.pump(0.02)
    elif verb == "resize":
        rows, cols = arg.split()
        winsize(d.master, int(rows), int(cols))
    elif verb == "kill":
        os.kill(d.pid, sig_of(arg))
    elif verb == "killpat":
        sig, user, pat = arg.split(" ", 2)
        subprocess.run(["pkill", "-" + sig, "-u", user, "-f", pat], check=False)
    elif verb == "hangup":
        os.close(d.master)
        os.close(d.slave)
        d.master = d.slave = -1
        d.hung = True
    elif verb == "wait":
        return d.wait()
    else:
        raise SystemExit("ptydrive: unknown step: " + line)
    return True


def stty(path):
    return subprocess.run(["stty", "-a", "-F", path], capture_output=True).stdout


def main():
    args = sys.argv[1:]
    opts = {"--rows": "24", "--cols": "80", "--timeout": "10", "--log": None, "--stty": None}
    while args and args[0] in opts:
        opts[args[0]] = args[1]
        args = args[2:]
    script, sep, cmd = args[0], args[1], args[2:]
    if sep != "--" or not cmd:
        raise SystemExit(__doc__)
    log = open(opts["--log"], "wb") if opts["--log"] else None
    d = Drive(cmd, int(opts["--rows"]), int(opts["--cols"]), float(opts["--timeout"]), log)
    ok = True
    with open(script) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            if not step(d, line):
                print("ptydrive: step %d failed: %s" % (n, line))
                ok = False
                break
    if not d.wait():
        print("ptydrive: the command did not end")
        os.kill(d.pid, signal.SIGKILL)
        d.wait()
        ok = False
    if opts["--stty"] and not d.hung:
        with open(opts["--stty"] + ".before", "wb") as f:
            f.write(d.before)
        with open(opts["--stty"] + ".after", "wb") as f:
            f.write(stty(d.path))
    st = d.status
    print("rc=%d" % (os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)))
    sys.exit(0 if ok else 1)


main()
