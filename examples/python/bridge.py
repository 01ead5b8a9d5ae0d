#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""bridge.py - a minimal chat bridge on ruas: each line of stdin is a prompt,
handed to an agent that runs as its own Unix user; each JSON reply of the
agent is printed as it comes.

    python3 bridge.py -c /etc/ruas/ruas.conf PROJECT [--fresh]

The agent speaks newline-delimited JSON: it reads {"prompt": ...} and
answers with one JSON object a line (a "reply" key ends the turn). One agent
serves the whole conversation; with --fresh each prompt gets an agent of its
own. Ctrl-C interrupts the current turn (SIGINT to the agent's process
group); a second Ctrl-C ends the bridge, and the agent's whole tree with it.
"""
import argparse
import json
import signal
import sys

import ruas


def start(cfg, project):
    return cfg.spawn(project, stdin=ruas.PIPE, stdout=ruas.PIPE, text=True)


def one_turn(agent, prompt):
    """Sends prompt; prints the agent's JSON lines until its reply. False if it ended."""
    try:
        agent.stdin.write(json.dumps({"prompt": prompt}) + "\n")
        agent.stdin.flush()
    except BrokenPipeError:
        return False
    while True:
        try:
            line = agent.stdout.readline()
        except KeyboardInterrupt:
            agent.send_signal(signal.SIGINT)  # interrupt this turn, not the bridge
            continue
        if not line:
            return False
        try:
            msg = json.loads(line)
        except ValueError:
            print(json.dumps({"bridge": "not json", "bytes": len(line)}), flush=True)
            continue
        print(json.dumps(msg), flush=True)
        if "reply" in msg or "interrupted" in msg:
            return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-c", "--config", default="/etc/ruas/ruas.conf")
    ap.add_argument("project")
    ap.add_argument("--fresh", action="store_true", help="an agent of its own per prompt")
    opts = ap.parse_args()

    cfg = ruas.Config.load(opts.config)
    report = cfg.preflight()
    if report[opts.project].fatal:
        for item in report[opts.project].items:
            sys.stderr.write(item.text)
        sys.exit("bridge: %s refused by its startup checks" % opts.project)

    agent = None
    try:
        for prompt in sys.stdin:
            prompt = prompt.rstrip("\n")
            if not prompt:
                continue
            if agent is None or agent.poll() is not None:
                agent = start(cfg, opts.project)
            if not one_turn(agent, prompt):
                print(json.dumps({"bridge": "agent ended", "status": agent.wait()}),
                      flush=True)
                agent.close()
                agent = None
            elif opts.fresh:
                agent.stdin.close()
                agent.wait()
                agent.close()
                agent = None
    except KeyboardInterrupt:
        pass
    finally:
        if agent is not None:
            agent.stdin.close()
            try:
                agent.wait(timeout=5)
            except ruas.TimeoutExpired:
                agent.terminate()  # the whole tree, with the project's grace
                agent.wait()
            agent.close()
        cfg.close()


if __name__ == "__main__":
    main()
