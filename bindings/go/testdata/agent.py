# agent.py MODE - an agent for the supervisor tests (supervisor_test.go,
# tests/integration/go.sh), speaking newline-delimited JSON: each line in is
# {"id":N,"prompt":P}; each turn ends with a line holding "done":true.
#   echo      replies {"id","user","reply":"USER:P","done":true}
#             a prompt "slow" is a long turn (60 s) that SIGINT interrupts:
#             {"id","interrupted":true,"done":true}, and the agent goes on;
#             "slow tree" also starts a child of its own in a new session
#   stubborn  echo, but SIGTERM is ignored (the grace's SIGKILL ends it)
#   big       writes 10 MiB (b"0123456789abcdef\n" repeated) and exits 0
#   fail      says so on stderr and exits 7
#   argv      prints its arguments, its cwd and $BRIDGE_TOKEN in hex, one a line
import json
import os
import pwd
import signal
import subprocess
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "echo"
ME = pwd.getpwuid(os.getuid()).pw_name
interrupted = False


def on_int(signum, frame):
    global interrupted
    interrupted = True


def out(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def slow(m):
    global interrupted
    interrupted = False
    out({"id": m["id"], "status": "working"})
    if m["prompt"] == "slow tree":
        subprocess.Popen(["sleep", "300"], start_new_session=True)
    for _ in range(600):
        if interrupted:
            out({"id": m["id"], "interrupted": True, "done": True})
            return
        time.sleep(0.1)
    out({"id": m["id"], "reply": "slow turn over", "done": True})


def main():
    signal.signal(signal.SIGINT, on_int)
    if MODE == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "big":
        chunk = b"0123456789abcdef\n" * 4096
        left = 10 << 20
        while left > 0:
            n = min(left, len(chunk))
            sys.stdout.buffer.write(chunk[:n])
            left -= n
        sys.stdout.flush()
        return 0
    if MODE == "fail":
        sys.stderr.write("agent failed on purpose\n")
        return 7
    if MODE == "argv":
        for a in sys.argv[2:]:
            print(os.fsencode(a).hex())
        print(os.fsencode(os.getcwd()).hex())
        print(os.fsencode(os.environ.get("BRIDGE_TOKEN", "")).hex())
        return 0
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("prompt", "").startswith("slow"):
            slow(m)
            continue
        out({"id": m["id"], "user": ME, "reply": ME + ":" + m.get("prompt", ""), "done": True})
    return 0


sys.exit(main())
