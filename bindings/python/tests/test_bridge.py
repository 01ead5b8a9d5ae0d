# SPDX-License-Identifier: ISC
"""A chat-bridge-like supervisor on the Python binding, against real sudo or
PAM and a real target user (tests/integration/python.sh runs it in the
sandbox: as the supervisor user on the sudo backend, as root on the pam
backend). Environment: CONF (projects "agent" and "agent2" as TARGET),
CONF_FATAL (project "bad", whose target can get root), TARGET, HELPER,
SESSION, BACKEND, AGENT (agent.py), WORK (the projects' work_dir), CRED
(the installed ruas-credential)."""
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

# Under a sanitizer build the tests preload its runtime into this python3
# (tests/python.sh, tests/integration/python.sh); it is this process's
# alone: a program started from here (pgrep, sh) must not run with it.
os.environ.pop("LD_PRELOAD", None)

import ruas  # noqa: E402
import ruas.asyncio as rasyncio

E = os.environ
TARGET = E["TARGET"]


def turn(child, prompt):
    child.stdin.write((json.dumps({"prompt": prompt}) + "\n").encode())
    child.stdin.flush()
    return json.loads(child.stdout.readline())


def target_left():
    r = subprocess.run(["pgrep", "-u", TARGET], capture_output=True, text=True)
    return r.stdout.split()


def start(cfg, report, project, *args, **kw):
    """The bridge's start: never a project that the preflight found fatal."""
    if report[project].fatal:
        raise RuntimeError("bridge: refusing %s: %s" % (project, " ".join(
            i.text.strip() for i in report[project].items if i.severity == "fatal")))
    return cfg.spawn(project, list(args), stdin=ruas.PIPE, stdout=ruas.PIPE, **kw)


class Bridge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cfg = ruas.Config.load(E["CONF"])
        cls.report = cls.cfg.preflight()
        if cls.report.fatal:
            raise AssertionError("preflight: %r" % cls.report)

    def tearDown(self):
        deadline = time.monotonic() + 10
        while target_left() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual(target_left(), [], "processes of %s left" % TARGET)

    def test_three_agents_at_once(self):
        kids = [start(self.cfg, self.report, p) for p in ("agent", "agent2", "agent")]
        replies = [None] * 3

        def talk(i):
            replies[i] = turn(kids[i], "hello %d" % i)
        threads = [threading.Thread(target=talk, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertEqual(len({k.pid for k in kids}), 3)
        self.assertTrue(all(k.poll() is None for k in kids), "all three run at once")
        for i, r in enumerate(replies):
            self.assertEqual(r["reply"], "hello %d" % i)
            self.assertEqual(r["user"], TARGET)
        for k in kids:
            k.stdin.close()
            self.assertEqual(k.wait(60), 0)
            k.close()

    def test_sigint_interrupts_a_turn(self):
        with start(self.cfg, self.report, "agent") as k:
            self.assertEqual(turn(k, "slow"), {"started": True})
            k.send_signal(signal.SIGINT)
            self.assertEqual(json.loads(k.stdout.readline()), {"interrupted": True})
            self.assertEqual(turn(k, "after")["reply"], "after")
        self.assertEqual(k.returncode, 0)

    def test_cancel_mid_turn(self):
        k = start(self.cfg, self.report, "agent")
        self.assertEqual(turn(k, "slow"), {"started": True})
        k.terminate()
        self.assertIn(k.wait(60), (-signal.SIGTERM, -signal.SIGKILL))
        k.close()

    def test_ten_mib_reply(self):
        k = start(self.cfg, self.report, "agent")
        out, _ = k.communicate(json.dumps({"prompt": "big"}).encode() + b"\n", timeout=120)
        self.assertEqual(len(out), 10 * 1024 * 1024 + 1)
        self.assertEqual(out.count(b"x"), 10 * 1024 * 1024)
        self.assertEqual(k.returncode, 0)
        k.close()

    def test_nonzero_exit(self):
        k = start(self.cfg, self.report, "agent")
        k.stdin.write(b'{"prompt": "exit 3"}\n')
        k.stdin.close()
        self.assertEqual(k.wait(60), 3)
        k.close()

    def test_spawn_refused_by_preflight(self):
        with ruas.Config.load(E["CONF_FATAL"]) as bad:
            report = bad.preflight()
            self.assertTrue(report.fatal)
            fatal = [i for i in report["bad"].items if i.severity == "fatal"]
            self.assertTrue(fatal)
            self.assertTrue(all(i.check and i.text.startswith("ERROR: ") for i in fatal))
            with self.assertRaises(RuntimeError) as cm:
                start(bad, report, "bad")
            self.assertIn("bridge: refusing bad", str(cm.exception))

    def test_project_in_code_from_hostile_strings(self):
        hostile = ['"; run_as_user = "root', "line\nbreak", "it's $HOME", "", "k=v"]
        with ruas.Config.new(name="bridge", helper=E["HELPER"], session_helper=E["SESSION"],
                             backend=E["BACKEND"], terminate_grace=1) as cfg:
            for bad in ['x"; run_as_user = "root', "a\nb"]:
                with self.assertRaises(ruas.ConfigError):
                    cfg.add_project(name=bad, work_dir=E["WORK"], command=["true"])
            with self.assertRaises(ruas.ConfigError):
                cfg.add_project(name="u", work_dir=E["WORK"], command=["true"],
                                run_as_user='%s"; run_as_user = "root' % TARGET)
            cfg.add_project(name="ok", work_dir=E["WORK"], run_as_user=TARGET,
                            command=[sys.executable, E["AGENT"]] + hostile)
            self.assertFalse(cfg.preflight().fatal)
            with cfg.spawn("ok", stdin=ruas.PIPE, stdout=ruas.PIPE) as k:
                r = turn(k, "who")
        self.assertEqual(r["argv"], hostile)
        self.assertEqual(r["user"], TARGET)

    def test_limits_reach_the_run(self):
        """The limits given in code reach the target's run: ruas-exec sets RLIMIT_NOFILE
        and RLIMIT_FSIZE, soft and hard, and RLIMIT_CORE 0 unless core_dumps (the
        agent's own python3 reads them); wall_time_max ends a turn that never ends."""
        probe = [sys.executable, "-c", "import resource as r\nprint(*[v for k in ('NOFILE', "
                 "'FSIZE', 'CORE') for v in r.getrlimit(getattr(r, 'RLIMIT_' + k))])"]
        with ruas.Config.new(name="limits", helper=E["HELPER"], session_helper=E["SESSION"],
                             backend=E["BACKEND"], terminate_grace=1, open_files_max=64) as cfg:
            cfg.add_project(name="on", work_dir=E["WORK"], run_as_user=TARGET, command=probe,
                            file_size_max="1M", core_dumps=True)
            cfg.add_project(name="off", work_dir=E["WORK"], run_as_user=TARGET, command=probe,
                            open_files_max=128, file_size_max=4096, core_dumps=False)
            cfg.add_project(name="slow", work_dir=E["WORK"], run_as_user=TARGET,
                            command=[sys.executable, E["AGENT"]], wall_time_max=1)
            cfg.add_project(name="long", work_dir=E["WORK"], run_as_user=TARGET,
                            command=[sys.executable, E["AGENT"]], wall_time_max=60)
            report = cfg.preflight()
            self.assertFalse(report.fatal)
            with cfg.spawn("on", stdout=ruas.PIPE) as k:
                on = [int(v) for v in k.communicate(timeout=60)[0].split()]
            self.assertEqual(on[:4], [64, 64, 1 << 20, 1 << 20])
            # core_dumps leaves the hard limit as the run got it. sudo's own rlimit_core
            # is 0 unless sudoers says otherwise (sudoers(5)): only PAM's shows it.
            if E["BACKEND"] == "pam":
                self.assertNotEqual(on[5], 0, "core_dumps: the hard limit as the run got it")
            with cfg.spawn("off", stdout=ruas.PIPE) as k:
                off = [int(v) for v in k.communicate(timeout=60)[0].split()]
            self.assertEqual(off, [128, 128, 4096, 4096, 0, 0])
            k = start(cfg, report, "slow")
            self.assertEqual(turn(k, "hello")["reply"], "hello")
            # stdin left open: only wall_time_max ends it.
            self.assertEqual(k.wait(30), -signal.SIGTERM)
            self.assertEqual(k.limit, "time")
            k.close()
            # The supervisor's own terminate before the deadline is no limit's.
            k = start(cfg, report, "long")
            self.assertEqual(turn(k, "hello")["reply"], "hello")
            k.terminate()
            self.assertEqual(k.wait(30), -signal.SIGTERM)
            self.assertIsNone(k.limit)
            k.close()

            async def main():
                p = await rasyncio.spawn(cfg, "slow", stdin=ruas.PIPE, stdout=ruas.PIPE)
                self.assertIsNone(p.limit)
                self.assertEqual(await asyncio.wait_for(p.wait(), 30), -signal.SIGTERM)
                self.assertEqual(p.limit, "time")
            asyncio.run(main())

    def test_asyncio_turn(self):
        async def main():
            p = await rasyncio.spawn(self.cfg, "agent", stdin=ruas.PIPE, stdout=ruas.PIPE)
            p.stdin.write(b'{"prompt": "async"}\n')
            await p.stdin.drain()
            r = json.loads(await asyncio.wait_for(p.stdout.readline(), 60))
            p.stdin.close()
            return r, await asyncio.wait_for(p.wait(), 60)
        r, rc = asyncio.run(main())
        self.assertEqual((r["reply"], r["user"], rc), ("async", TARGET, 0))

    def test_credentials_in_code_and_from_a_callable(self):
        """Issue 29 through the binding: the agent, as TARGET, runs ruas-credential for
        credentials configured in code (a global from_env from the spawn's env, a
        project's own from_file replacing a global of the same name) and for one the
        spawn's callable gives; a name the callable has none of is refused as unknown,
        one it raises on as a failed source. The callable is asked only for names no
        configured source has, and no value reaches the agent's environment."""
        token = "sk-env-%s" % os.urandom(8).hex()
        deploy = "deploy-%s" % os.urandom(8).hex()
        given = "cb-%s" % os.urandom(8).hex()
        fd, path = tempfile.mkstemp(prefix="ruas-deploy.")  # 0600, the supervisor's
        with os.fdopen(fd, "w") as f:
            f.write(deploy + "\n")
        script = 'for n in "$@"; do "$0" "$n"; echo "rc=$?"; done; env'
        names = ["token", "deploy", "from-callable", "nosuch", "broken"]
        calls = []

        def source(project, name):
            calls.append((project, name))
            if name == "broken":
                raise RuntimeError("the vault is sealed")
            return given if name == "from-callable" else None
        try:
            with ruas.Config.new(name="creds", helper=E["HELPER"], session_helper=E["SESSION"],
                                 backend=E["BACKEND"], terminate_grace=1,
                                 credentials=[ruas.Credential("token", from_env="BRIDGE_TOKEN"),
                                              {"name": "deploy", "from_env": "UNSET_HERE"}]
                                 ) as cfg:
                cfg.add_project(name="c", work_dir=E["WORK"], run_as_user=TARGET,
                                command=["/bin/sh", "-c", script, E["CRED"]],
                                credentials=[{"name": "deploy", "from_file": path}])
                # The callable's failure is also warned of, from the credential thread.
                with cfg.spawn("c", names, stdout=ruas.PIPE, stderr=ruas.PIPE,
                               env={"BRIDGE_TOKEN": token, "PATH": "/usr/bin:/bin"},
                               credentials=source) as k:
                    out, err = k.communicate(timeout=60)
                self.assertEqual(k.returncode, 0, err)
        finally:
            os.unlink(path)
        out, err = out.decode(), err.decode()
        lines = out.splitlines()
        self.assertEqual(lines[:8], [token, "rc=0", deploy, "rc=0", given, "rc=0",
                                     "rc=1", "rc=1"], err)
        self.assertIn('ruas-credential: nosuch: unknown credential "nosuch": project "c" has '
                      'none by that name', err)
        self.assertIn('ruas-credential: broken: credential "broken" could not be had: its '
                      'source failed', err)
        self.assertNotIn("vault is sealed", err)
        self.assertEqual(calls, [("c", "from-callable"), ("c", "nosuch"), ("c", "broken")])
        self.assertEqual(k.credential_failures, 1)
        self.assertIsInstance(k.credential_error, RuntimeError)
        env = "\n".join(lines[8:])
        self.assertRegex(env, r"(?m)^RUAS_CREDENTIALS=@ruas-credentials-[0-9a-f]{32}$")
        for v in (token, deploy, given):
            self.assertNotIn(v, env)


if __name__ == "__main__":
    unittest.main(verbosity=2)
