# SPDX-License-Identifier: ISC
"""Tests of the Python binding that need no root: projects without run_as_user
(the command runs as this user, through libruas's direct backend), projects
built in code from hostile strings, errors, the Popen surface and asyncio.
Run by tests/python.sh against the build tree (RUAS_LIBRARY)."""
import asyncio
import ctypes
import errno
import os
import re
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

HOSTILE = ['x"; run_as_user = "root', "a\nb", "it's", "$HOME", "", "\\", "; id", "k=v"]


def config(**kw):
    cfg = ruas.Config.new(name="unit", **kw)
    cfg.add_project(name="sh", work_dir=WORK, command=["/bin/sh", "-c"],
                    env_allowlist=["LANG", "TOKEN"])
    cfg.add_project(name="argv", work_dir=WORK, command=ARGV, env_allowlist=["LANG", "TOKEN"])
    return cfg


ARGV = [sys.executable, "-c", "import json, os, sys; print(json.dumps({'argv': sys.argv[1:], "
        "'cwd': os.getcwd(), 'token': os.environ.get('TOKEN')}))"]


class Base(unittest.TestCase):
    def setUp(self):
        self.cfg = config()

    def tearDown(self):
        self.cfg.close()


class LayoutTests(unittest.TestCase):
    """ctypes' copies of ruas.h's structs have C's offsets and sizes, field for
    field: a small C program built here against the header says them."""

    STRUCTS = {
        "ruas_config_options": "ConfigOptions", "ruas_config_globals": "ConfigGlobals",
        "ruas_project_spec": "ProjectSpec", "ruas_preflight_options": "PreflightOptions",
        "ruas_spawn_options": "SpawnOptions", "ruas_audit_record": "AuditRecord",
        "ruas_audit_sink": "AuditSink", "ruas_credential_spec": "CredentialSpec",
    }

    def test_ctypes_layouts_are_cs(self):
        from ruas import _lib
        top = os.environ.get("abs_top_srcdir")
        cc = os.environ.get("CC", "cc").split()[0]
        if not top or not any(os.access(os.path.join(d, cc), os.X_OK)
                              for d in os.environ.get("PATH", "").split(":")):
            self.fail("the layout test needs abs_top_srcdir and a C compiler (%s)" % cc)
        lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <ruas.h>",
                 "int main(void) {"]
        for c_name, py_name in self.STRUCTS.items():
            lines.append('printf("%s size %%zu\\n", sizeof(%s));' % (c_name, c_name))
            for field, _ in getattr(_lib, py_name)._fields_:
                lines.append('printf("%s %s %%zu\\n", offsetof(%s, %s));'
                             % (c_name, field, c_name, field))
        lines += ["return 0;", "}"]
        with tempfile.TemporaryDirectory() as d:
            src, exe = os.path.join(d, "layout.c"), os.path.join(d, "layout")
            with open(src, "w") as f:
                f.write("\n".join(lines) + "\n")
            env = dict(os.environ)
            env.pop("LD_PRELOAD", None)
            subprocess.run([cc, "-std=c11", "-I", os.path.join(top, "include"), "-o", exe, src],
                           check=True, env=env)
            out = subprocess.run([exe], check=True, capture_output=True, text=True, env=env).stdout
        c = {}
        for line in out.splitlines():
            struct, field, value = line.split()
            c[(struct, field)] = int(value)
        for c_name, py_name in self.STRUCTS.items():
            cls = getattr(_lib, py_name)
            self.assertEqual(ctypes.sizeof(cls), c[(c_name, "size")], c_name)
            for field, _ in cls._fields_:
                self.assertEqual(getattr(cls, field).offset, c[(c_name, field)],
                                 "%s.%s" % (c_name, field))


    VERSIONS = {
        "RUAS_CONFIG_OPTIONS_VERSION": "CONFIG_OPTIONS_VERSION",
        "RUAS_CONFIG_GLOBALS_VERSION": "CONFIG_GLOBALS_VERSION",
        "RUAS_PROJECT_SPEC_VERSION": "PROJECT_SPEC_VERSION",
        "RUAS_PREFLIGHT_OPTIONS_VERSION": "PREFLIGHT_OPTIONS_VERSION",
        "RUAS_SPAWN_OPTIONS_VERSION": "SPAWN_OPTIONS_VERSION",
        "RUAS_AUDIT_SINK_VERSION": "AUDIT_SINK_VERSION",
    }

    def test_versions_are_the_headers(self):
        """The binding names the versions of the header its layouts were taken from."""
        from ruas import _lib
        top = os.environ.get("abs_top_srcdir")
        if not top:
            self.fail("the version test needs abs_top_srcdir")
        text = ""
        for name in os.listdir(os.path.join(top, "include", "ruas")):
            with open(os.path.join(top, "include", "ruas", name)) as f:
                text += f.read()
        for c_name, py_name in self.VERSIONS.items():
            m = re.search(r"^#define %s (\d+)$" % c_name, text, re.M)
            self.assertIsNotNone(m, c_name)
            self.assertEqual(getattr(_lib, py_name), int(m.group(1)), c_name)

    def test_structs_start_at_the_librarys_defaults(self):
        from ruas import _lib
        o = _lib.options(_lib.SpawnOptions, _lib.SPAWN_OPTIONS_VERSION)
        self.assertEqual((o.version, o.stdin_fd, o.stdout_fd, o.stderr_fd, o.pty, o.pty_relay),
                         (6, -1, -1, -1, -1, 0))
        self.assertEqual((bool(o.credential_callback), o.credential_payload), (False, None))
        g = _lib.options(_lib.ConfigGlobals, _lib.CONFIG_GLOBALS_VERSION)
        self.assertEqual((g.version, g.terminate_grace, g.host_check_interval), (8, -1, -1))
        self.assertEqual((bool(g.credentials), g.credential_count), (False, 0))
        self.assertEqual((bool(g.git_hosts), g.git_host_count, g.claude_api_key), (False, 0, None))
        self.assertEqual((g.open_files_max, g.file_size_max, g.core_dumps, g.wall_time_max),
                         (-1, None, -1, -1))
        self.assertEqual((g.memory_max, g.memory_swap_max, g.tasks_max, g.cpu_max,
                          g.cgroup_parent, g.require_command), (None, None, -1, None, None, -1))
        s = _lib.options(_lib.ProjectSpec, _lib.PROJECT_SPEC_VERSION)
        self.assertEqual((s.version, s.terminate_grace, s.open_files_max, s.file_size_max,
                          s.core_dumps, s.wall_time_max), (6, -1, -1, None, -1, -1))
        self.assertEqual((bool(s.credentials), s.credential_count), (False, 0))
        self.assertEqual((bool(s.git_hosts), s.git_host_count, s.claude_api_key), (False, 0, None))
        self.assertEqual((s.memory_max, s.memory_swap_max, s.tasks_max, s.cpu_max,
                          s.require_command), (None, None, -1, None, -1))
        k = _lib.options(_lib.AuditSink, 1, to=_lib.AUDIT_TO_CALLBACK)
        self.assertEqual((k.to, k.fd), (_lib.AUDIT_TO_CALLBACK, -1))
        with self.assertRaises(ruas.InvalidError):
            _lib.options(_lib.SpawnOptions, 99)
        with self.assertRaises(TypeError):
            _lib.options(_lib.SpawnOptions, 5, stdin=0)


class AuditTests(unittest.TestCase):
    """The audit trail in the binding: Config.new's audit keys, and audit=callable."""

    def test_callable_gets_every_record_as_a_dict(self):
        got = []
        cfg = config(audit=got.append)
        try:
            cfg.preflight()
            c = cfg.spawn("sh", ["exit 3"], stdout=ruas.DEVNULL)
            self.assertEqual(c.wait(), 3)
            c.close()
        finally:
            cfg.close()
        events = [r["event"] for r in got]
        self.assertEqual(events, ["check", "start", "end"], got)
        start, end = got[1], got[2]
        self.assertEqual(start["run"], end["run"])
        self.assertEqual(start["project"], "sh")
        self.assertEqual((end["exit"], end["started"], end["lifetime"], end["agent_pid"]),
                         (3, "yes", "none", start["pid"]))
        self.assertTrue(end["line"].startswith("end run=" + end["run"] + " "), end["line"])
        self.assertEqual(cfg.audit_failures, 0)

    def test_a_callable_that_raises_is_counted_and_warned_of(self):
        def bad(record):
            raise RuntimeError("the bridge's log is down")
        cfg = config(audit=bad)
        try:
            with self.assertWarns(RuntimeWarning):
                c = cfg.spawn("sh", ["exit 0"], stdout=ruas.DEVNULL)
                self.assertEqual(c.wait(), 0)
                c.close()
            self.assertEqual(cfg.audit_failures, 2)
            self.assertIn("log is down", str(cfg.audit_error))
        finally:
            cfg.close()
        with self.assertRaises(TypeError):
            config(audit="not callable")

    def test_new_takes_the_audit_keys(self):
        with tempfile.TemporaryDirectory() as d:
            os.chmod(d, 0o700)
            log = os.path.join(d, "audit.jsonl")
            cfg = config(audit_log=log, audit_argv="none", audit_facility="local3",
                         audit=lambda r: None)
            try:
                c = cfg.spawn("sh", ["exit 0", "secret-arg"], stdout=ruas.DEVNULL)
                self.assertEqual(c.wait(), 0)
                c.close()
            finally:
                cfg.close()
            import json
            with open(log) as f:
                recs = [json.loads(line) for line in f]
            self.assertEqual([r["event"] for r in recs], ["start", "end"])
            self.assertIsNone(recs[0].get("argv"), recs[0])
            with open(log) as f:
                self.assertNotIn("secret-arg", f.read())
        with self.assertRaises(ruas.ConfigError):
            ruas.Config.new(audit_argv="some")


class LimitTests(unittest.TestCase):
    """The limits of a run (ruas.conf(5) keys open_files_max, file_size_max,
    core_dumps, wall_time_max) through Config.new() and add_project(), judged
    by the library with its own messages; and Child.limit. Legacy-mode
    projects: the library keeps wall_time_max without run_as_user too."""

    def test_keys_taken_and_read_back(self):
        cfg = ruas.Config.new(name="limits", open_files_max=256, file_size_max=64 << 20,
                              core_dumps=True, wall_time_max=600)
        try:
            cfg.add_project(name="global", run_as_user="nobody", work_dir=WORK, command=["true"])
            # A project's own win, 0 (none) over the global 600 too.
            cfg.add_project(name="own", run_as_user="nobody", work_dir=WORK, command=["true"], open_files_max=4096,
                            file_size_max="64M", core_dumps=False, wall_time_max=0)
            # The largest size there is, as an int: it crosses as its decimal string.
            cfg.add_project(name="big", run_as_user="nobody", work_dir=WORK, command=["true"],
                            file_size_max=1 << 62, core_dumps=1)
            keys = ("wall_time_max", "open_files_max", "file_size_max", "core_dumps")
            got = {n: tuple(cfg.project(n)[k] for k in keys) for n in cfg.projects}
            self.assertEqual(got, {"global": (600, 256, 64 << 20, True),
                                   "own": (0, 4096, 64 << 20, False),
                                   "big": (600, 256, 1 << 62, True)})
        finally:
            cfg.close()
        cfg = config()
        try:
            p = cfg.project("sh")  # none given: none, and as the run gets it
            self.assertEqual((p["wall_time_max"], p["open_files_max"]), (0, 0))
        finally:
            cfg.close()

    def test_require_command_taken_and_read_back(self):
        """require_command (issue 28): the top level's is each project's default, a
        project's own wins; not a bool is a TypeError before C, 2 the library's refusal."""
        cfg = ruas.Config.new(name="rc", require_command=True)
        try:
            cfg.add_project(name="global", run_as_user="nobody", work_dir=WORK, command=["true"])
            cfg.add_project(name="own", run_as_user="nobody", work_dir=WORK, command=["true"],
                            require_command=False)
            self.assertEqual({n: cfg.project(n)["require_command"] for n in cfg.projects},
                             {"global": True, "own": False})
            with self.assertRaises(TypeError):
                cfg.add_project(name="str", run_as_user="nobody", work_dir=WORK,
                                command=["true"], require_command="false")
            with self.assertRaises(ruas.ConfigError) as cm:
                cfg.add_project(name="two", run_as_user="nobody", work_dir=WORK,
                                command=["true"], require_command=2)
            self.assertIn("require_command must be true or false", str(cm.exception))
        finally:
            cfg.close()
        cfg = config()
        try:
            self.assertFalse(cfg.project("sh")["require_command"])
        finally:
            cfg.close()

    BAD = [
        (dict(open_files_max=8), "open_files_max must be between 16 and 1048576"),
        (dict(open_files_max=1048577), "open_files_max must be between 16 and 1048576"),
        # -1 is C's RUAS_UNSET: it must not pass as absent; 2^32+64 wraps to 64 as a C int.
        (dict(open_files_max=-1), "open_files_max must be between 16 and 1048576"),
        (dict(open_files_max=(1 << 32) + 64), "open_files_max must be between 16 and 1048576"),
        (dict(file_size_max="64X"), "file_size_max must be a number of bytes"),
        (dict(file_size_max="-1"), "file_size_max must be a number of bytes"),
        (dict(file_size_max=0), "file_size_max must be a number of bytes"),
        # One byte past the largest: the int reaches the library exactly.
        (dict(file_size_max=(1 << 62) + 1), "file_size_max must be a number of bytes"),
        (dict(core_dumps=2), "core_dumps must be true or false"),
        (dict(core_dumps=(1 << 32) + 1), "core_dumps must be true or false"),
        (dict(wall_time_max=31536001),
         "wall_time_max must be between 0 (none) and 31536000 seconds"),
        (dict(wall_time_max=-1), "wall_time_max must be between 0 (none) and 31536000 seconds"),
        (dict(wall_time_max=(1 << 32) + 1),
         "wall_time_max must be between 0 (none) and 31536000 seconds"),
    ]

    def test_bad_values_refused_with_the_librarys_message(self):
        for kw, says in self.BAD:
            with self.assertRaises(ruas.ConfigError, msg=repr(kw)) as cm:
                ruas.Config.new(**kw)
            self.assertIn(says, str(cm.exception), kw)
        cfg = ruas.Config.new(name="limits")
        try:
            for i, (kw, says) in enumerate(self.BAD):
                with self.assertRaises(ruas.ConfigError, msg=repr(kw)) as cm:
                    cfg.add_project(name="p%d" % i, work_dir=WORK, command=["true"], **kw)
                self.assertIn(says, str(cm.exception), kw)
            self.assertEqual(cfg.projects, [])
        finally:
            cfg.close()

    def test_values_of_the_wrong_type_never_reach_c(self):
        # "false" is a true str, True an int of 1 byte: neither may pass as such.
        for kw in (dict(core_dumps="false"), dict(core_dumps=1.0),
                   dict(file_size_max=True), dict(file_size_max=1.5),
                   dict(file_size_max=b"64M")):
            with self.assertRaises(TypeError, msg=repr(kw)):
                ruas.Config.new(**kw)
            cfg = ruas.Config.new(name="limits")
            try:
                with self.assertRaises(TypeError, msg=repr(kw)):
                    cfg.add_project(name="p", work_dir=WORK, command=["true"], **kw)
            finally:
                cfg.close()

    def test_cgroup_keys_taken_and_read_back(self):
        cfg = ruas.Config.new(name="limits", memory_max="64M", tasks_max=100, cpu_max=0.5,
                              cgroup_parent="/sys/fs/cgroup/bridge.service/runs")
        try:
            cfg.add_project(name="global", run_as_user="nobody", work_dir=WORK, command=["true"])
            cfg.add_project(name="own", run_as_user="nobody", work_dir=WORK, command=["true"],
                            memory_max=1 << 30, memory_swap_max="16M", tasks_max=20,
                            cpu_max="1.5")
            keys = ("memory_max", "memory_swap_max", "tasks_max", "cpu_max")
            got = {n: tuple(cfg.project(n)[k] for k in keys) for n in cfg.projects}
            self.assertEqual(got, {"global": (64 << 20, 0, 100, "0.5"),
                                   "own": (1 << 30, 16 << 20, 20, "1.5")})
        finally:
            cfg.close()
        cfg = config()
        try:
            p = cfg.project("sh")  # none given: none
            self.assertEqual(tuple(p[k] for k in ("memory_max", "tasks_max", "cpu_max")),
                             (0, 0, None))
        finally:
            cfg.close()

    CGROUP_BAD = [
        (dict(memory_max="1M"), "memory_max must be a number of bytes from 8M"),
        (dict(memory_max="64X"), "memory_max must be a number of bytes from 8M"),
        (dict(memory_max=0), "memory_max must be a number of bytes from 8M"),
        (dict(memory_swap_max="1M"), "memory_swap_max needs memory_max"),
        (dict(tasks_max=7), "tasks_max must be between 8"),
        (dict(tasks_max=(1 << 32) + 20), "tasks_max must be between 8"),
        (dict(cpu_max=0.001), "cpu_max must be a number of CPUs from 0.01 to 1024"),
        (dict(cpu_max="2000"), "cpu_max must be a number of CPUs from 0.01 to 1024"),
        (dict(cpu_max="half"), "cpu_max must be a number of CPUs from 0.01 to 1024"),
    ]

    def test_bad_cgroup_values_refused_with_the_librarys_message(self):
        for kw, says in self.CGROUP_BAD:
            cfg = ruas.Config.new(name="limits")
            try:
                with self.assertRaises(ruas.ConfigError, msg=repr(kw)) as cm:
                    cfg.add_project(name="p", run_as_user="nobody", work_dir=WORK,
                                    command=["true"], **kw)
                self.assertIn(says, str(cm.exception), kw)
                self.assertEqual(cfg.projects, [])
            finally:
                cfg.close()
        with self.assertRaises(ruas.ConfigError) as cm:
            ruas.Config.new(cgroup_parent="sys/fs/cgroup/x")
        self.assertIn("cgroup_parent", str(cm.exception))
        for kw in (dict(memory_max=True), dict(memory_max=1.5), dict(cpu_max=True),
                   dict(cpu_max=b"0.5"), dict(memory_swap_max=[1])):
            with self.assertRaises(TypeError, msg=repr(kw)):
                ruas.Config.new(**kw)

    def test_a_run_that_ends_by_itself_has_no_limit(self):
        cfg = config()
        try:
            c = cfg.spawn("sh", ["exit 3"])
            self.assertIsNone(c.limit)
            self.assertEqual(c.wait(timeout=30), 3)
            self.assertIsNone(c.limit)
            c.close()
        finally:
            cfg.close()

    def test_wall_time_max_needs_run_as_user(self):
        # Without run_as_user a terminate reaches one pid, not the run's tree: refused
        # rather than kept in part (tests/integration/python.sh keeps it).
        cfg = ruas.Config.new(name="limits")
        try:
            with self.assertRaises(ruas.ConfigError) as cm:
                cfg.add_project(name="slow", work_dir=WORK, command=["true"], wall_time_max=1)
            self.assertIn('project "slow": wall_time_max needs run_as_user', str(cm.exception))
            self.assertEqual(cfg.projects, [])
        finally:
            cfg.close()


class CredentialTests(unittest.TestCase):
    """Credentials (issue 29, docs/credentials.md) built in code: Config.new() and
    add_project() take them as ruas.Credential or dicts and the library judges them
    with the file's messages; a spawn's credentials callable behind the C callback.
    Serving them to a real run is tests/integration/python.sh's."""

    GOOD = [ruas.Credential("anthropic", from_env="ANTHROPIC_API_KEY"),
            {"name": "github", "from_command": ["gh", "auth", "token"], "ttl": 300},
            {"name": "deploy", "from_file": "/etc/ruas/secrets/deploy"}]
    BAD = [
        ([{"name": "Bad"}],
         'credentials: name "Bad" is invalid (pattern ^[a-z0-9][a-z0-9_.-]*$, at most 64)'),
        ([{"from_env": "A"}], 'credentials: a credential has no "name"'),
        ([{"name": "x"}], 'credentials: "x" needs exactly one of from_env, from_command and '
                          'from_file'),
        ([ruas.Credential("x", from_env="A", from_file="/f")],
         'credentials: "x" needs exactly one of from_env, from_command and from_file'),
        ([{"name": "x", "from_env": "A", "ttl": 5}],
         'credentials: "x": ttl is only for a from_command credential'),
        ([{"name": "x", "from_command": ["t"], "ttl": 86401}],
         'credentials: "x": ttl must be 0 to 86400 seconds'),
        # -1 would be RUAS_UNSET (absent): it must not pass as such.
        ([{"name": "x", "from_command": ["t"], "ttl": -1}],
         'credentials: "x": ttl must be 0 to 86400 seconds'),
        ([{"name": "x", "from_file": "rel"}],
         'credentials: from_file "rel" must be an absolute path'),
        ([{"name": "x", "from_env": "A-B"}],
         'credentials: from_env "A-B" is not a variable name ([A-Za-z_][A-Za-z0-9_]*)'),
        ([{"name": "x", "from_command": []}], 'credentials: "x": from_command must not be empty'),
        ([{"name": "x", "from_command": [""]}],
         'credentials: "x": from_command\'s program is empty'),
        ([{"name": "x", "from_env": "A"}, {"name": "x", "from_env": "B"}],
         'credentials: "x" is given twice'),
    ]

    def test_taken_at_the_top_level_and_per_project(self):
        with ruas.Config.new(name="creds", credentials=self.GOOD) as cfg:
            cfg.add_project(name="p", run_as_user="nobody", work_dir=WORK, command=["true"],
                            credentials=[{"name": "deploy", "from_env": "DEPLOY"}])
            cfg.add_project(name="q", run_as_user="nobody", work_dir=WORK, command=["true"],
                            credentials=[])
            self.assertEqual(cfg.projects, ["p", "q"])

    def test_bad_ones_refused_with_the_files_messages(self):
        for creds, says in self.BAD:
            with self.assertRaises(ruas.ConfigError, msg=repr(creds)) as cm:
                ruas.Config.new(credentials=creds)
            self.assertIn(says, str(cm.exception), creds)
        with ruas.Config.new(name="creds") as cfg:
            for i, (creds, says) in enumerate(self.BAD):
                with self.assertRaises(ruas.ConfigError, msg=repr(creds)) as cm:
                    cfg.add_project(name="p%d" % i, run_as_user="nobody", work_dir=WORK,
                                    command=["true"], credentials=creds)
                self.assertIn(says, str(cm.exception), creds)
            # The values stay with the supervisor: a project run as it is refused.
            with self.assertRaises(ruas.ConfigError) as cm:
                cfg.add_project(name="legacy", work_dir=WORK, command=["true"],
                                credentials=self.GOOD[:1])
            self.assertIn('project "legacy": credentials need run_as_user', str(cm.exception))
            self.assertEqual(cfg.projects, [])

    def test_wrong_types_never_reach_c(self):
        for creds in ([{"name": "x", "from_command": "gh auth token"}],
                      [{"name": "x", "from_command": ["t"], "ttl": True}],
                      [{"name": "x", "from_command": ["t"], "ttl": "300"}],
                      [{"name": "x", "from_env": "A", "value": "sk-1"}],
                      {"name": "x", "from_env": "A"}, ruas.Credential("x", from_env="A"),
                      "anthropic", [("x", "A")]):
            with self.assertRaises(TypeError, msg=repr(creds)):
                ruas.Config.new(credentials=creds)
        with self.assertRaises(ValueError):
            ruas.Config.new(credentials=[{"name": "x", "from_file": "/a\0b"}])

    def test_callback_copies_the_value_into_cs_buffer(self):
        """The trampoline the library calls, called as C calls it: the value and a NUL in
        the buffer, its length returned; None is 0 (no such credential); an exception,
        a value that does not fit in value_size - 1 bytes, an empty one or one with a
        NUL is -1 (failed), counted and kept."""
        from ruas import _config
        calls = []

        def fn(project, name):
            calls.append((project, name))
            return {"tok": "sk-abc", "raw": b"\xffbytes", "fits": "x" * 15, "long": "x" * 16,
                    "empty": "", "nul": "a\0b", "int": 7}.get(name) if name != "boom" \
                else 1 / 0
        cb = _config._Credentials(fn)
        buf = ctypes.create_string_buffer(16)

        def call(name):
            ctypes.memset(buf, 0x55, 16)
            return cb.trampoline(b"proj", name.encode(), ctypes.addressof(buf), 16, None)
        self.assertEqual(call("tok"), 6)
        self.assertEqual(buf.raw[:7], b"sk-abc\0")
        self.assertEqual(call("raw"), 6)
        self.assertEqual(buf.raw[:7], b"\xffbytes\0")
        self.assertEqual(call("fits"), 15)
        self.assertEqual(buf.raw, b"x" * 15 + b"\0")
        self.assertEqual(call("nosuch"), 0)
        self.assertEqual(cb.failures, 0)
        with self.assertWarns(RuntimeWarning):
            for name in ("long", "empty", "nul", "int", "boom"):
                self.assertEqual(call(name), -1, name)
                self.assertEqual(buf.raw, b"\x55" * 16, "nothing written for %s" % name)
        self.assertEqual(cb.failures, 5)
        self.assertIsInstance(cb.error, ZeroDivisionError)
        self.assertEqual(calls[0], ("proj", "tok"))
        with self.assertRaises(TypeError):
            _config._Credentials("not callable")

    def test_spawn_takes_the_callable_and_keeps_it(self):
        cfg = config()
        try:
            with self.assertRaises(TypeError):
                cfg.spawn("sh", ["exit 0"], credentials="sk-1")
            c = cfg.spawn("sh", ["exit 0"], credentials=lambda project, name: None)
            self.assertEqual(c.wait(timeout=30), 0)
            self.assertEqual((c.credential_failures, c.credential_error), (0, None))
            self.assertIsNotNone(c._credentials.trampoline)
            c.close()

            async def main():
                p = await rasyncio.spawn(cfg, "sh", ["exit 0"],
                                         credentials=lambda project, name: None)
                return await asyncio.wait_for(p.wait(), 30)
            self.assertEqual(asyncio.run(main()), 0)
        finally:
            cfg.close()


class ConfigTests(Base):
    def test_hostile_project_names_refused_naming_them(self):
        for name in ['x"; run_as_user = "root', "a\nb", "", "$(id)", "a b"]:
            with self.assertRaises(ruas.ConfigError) as cm:
                self.cfg.add_project(name=name, work_dir=WORK, command=["true"])
            self.assertEqual(cm.exception.code, -1)
            self.assertIn("project name", str(cm.exception))
        self.assertEqual(self.cfg.projects, ["sh", "argv"])

    def test_hostile_user_and_paths_refused(self):
        cases = [dict(run_as_user='root"; x'), dict(run_as_user="a\nb"),
                 dict(work_dir="relative"), dict(work_dir="")]
        for i, extra in enumerate(cases):
            kw = dict(name="p%d" % i, work_dir=WORK, command=["true"])
            kw.update(extra)
            with self.assertRaises(ruas.Error, msg=repr(extra)):
                self.cfg.add_project(**kw)

    def test_hostile_work_dir_handled_exactly(self):
        odd = os.path.join(WORK, 'a\nb "q" $HOME \'s')
        os.makedirs(odd, exist_ok=True)
        self.cfg.add_project(name="odd", work_dir=odd, command=ARGV)
        import json
        out, _ = self.cfg.spawn("odd", stdout=ruas.PIPE).communicate(timeout=30)
        self.assertEqual(json.loads(out)["cwd"], odd)

    def test_numbers_c_would_misread_refused(self):
        # -1 is C's RUAS_UNSET and 2^32 wraps to 0 as a C int: neither may pass as another
        # value; each is refused with the library's message, for every numeric key.
        for bad in (-1, 1 << 32):
            with self.assertRaises(ruas.ConfigError) as cm:
                self.cfg.add_project(name="g", work_dir=WORK, command=["true"],
                                     terminate_grace=bad)
            self.assertIn("terminate_grace must be between 0 and 3600", str(cm.exception))
            for kw, says in ((dict(terminate_grace=bad), "terminate_grace must be between"),
                             (dict(scan_time_limit=bad), "scan_time_limit must be between"),
                             (dict(audit_argv_max=bad), "audit_argv_max must be"),
                             (dict(host_check_interval=bad), "host_check_interval must be")):
                with self.assertRaises(ruas.ConfigError, msg=repr(kw)) as cm:
                    ruas.Config.new(**kw)
                self.assertIn(says, str(cm.exception), kw)

    def test_nul_refused_before_c(self):
        with self.assertRaises(ValueError):
            self.cfg.add_project(name="n", work_dir=WORK, command=["a\0b"])

    def test_command_must_be_a_list(self):
        with self.assertRaises(TypeError):
            self.cfg.add_project(name="s", work_dir=WORK, command="echo hi")

    def test_project_roundtrip(self):
        p = self.cfg.project("sh")
        self.assertEqual(p["command"], ["/bin/sh", "-c"])
        self.assertIsNone(p["run_as_user"])
        with self.assertRaises(ruas.NotFoundError):
            self.cfg.project("nope")

    def test_load_errors_name_the_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
            f.write('projects = (\n  { name = "a"; work_dir = "/tmp"; command = [ }\n);\n')
        try:
            with self.assertRaises(ruas.ConfigError) as cm:
                ruas.Config.load(f.name, skip_owner_check=True)
            self.assertEqual(cm.exception.file, f.name)
            self.assertEqual(cm.exception.line, 2)
        finally:
            os.unlink(f.name)

    def test_preflight_report(self):
        r = self.cfg.preflight()
        self.assertFalse(r.fatal)
        self.assertEqual([p.name for p in r.projects], ["sh", "argv"])
        self.assertEqual(r["sh"].items, [])
        # The host's findings, once: check "proc" unless /proc has a hidepid that hides.
        hides = None
        with open("/proc/self/mountinfo") as f:
            for line in f:
                fields = line.split(" - ")
                if len(fields) == 2 and fields[0].split()[4] == "/proc" and fields[1].startswith("proc "):
                    opts = fields[1].split()[2].split(",")
                    given = [o[8:] for o in opts if o.startswith("hidepid=")]
                    hides = bool(given) and given[-1] in ("1", "2", "4", "noaccess", "invisible", "ptraceable")
        self.assertEqual([(i.check, i.severity) for i in r.host], [] if hides in (True, None) else [("proc", "warning")])
        # What it is about and what to do, beside the text: the fix is the text's own words.
        for i in r.host:
            self.assertEqual((i.user, i.path), (None, "/proc"))
            self.assertTrue(i.fix.startswith("pass prompts on the agent's stdin") and i.fix in i.text)
        # An Item made as before (check, severity, text) has none of them.
        old = ruas.Item("sudo", "fatal", "ERROR: x\n")
        self.assertEqual((old.user, old.path, old.fix), (None, None, None))
        self.assertTrue(all(isinstance(u, ruas.Unjudged) and u.path.startswith("/") for u in r.unjudged))
        if os.geteuid() == 0:
            self.assertEqual(r.unjudged, [])


class ChildTests(Base):
    def test_arguments_cross_exactly(self):
        out, _ = self.cfg.spawn("argv", HOSTILE, stdout=ruas.PIPE).communicate(timeout=30)
        import json
        got = json.loads(out)
        self.assertEqual(got["argv"], HOSTILE)

    def test_work_dir_and_set_env(self):
        sub = os.path.join(WORK, "sub dir 'q'")
        os.makedirs(sub, exist_ok=True)
        import json
        c = self.cfg.spawn("argv", stdout=ruas.PIPE, work_dir="sub dir 'q'",
                           set_env={"TOKEN": "t\n$HOME"}, env={"LANG": "C"})
        got = json.loads(c.communicate(timeout=30)[0])
        self.assertEqual(got["cwd"], os.path.realpath(sub))
        self.assertEqual(got["token"], "t\n$HOME")
        with self.assertRaises(ruas.EscapeError):
            self.cfg.spawn("argv", work_dir="../..")
        with self.assertRaises(ruas.InvalidError) as cm:
            self.cfg.spawn("argv", set_env={"PATH": "/evil"})
        self.assertIn("PATH", str(cm.exception))

    def test_run_id_is_the_agents(self):
        c = self.cfg.spawn("sh", ['printf %s "$RUAS_RUN_ID"'], stdout=ruas.PIPE)
        out, _ = c.communicate(timeout=30)
        self.assertRegex(c.run_id, "^[0-9a-f]{32}$")
        self.assertEqual(out.decode(), c.run_id)
        c2 = self.cfg.spawn("sh", ["true"])
        c2.wait(timeout=30)
        self.assertNotEqual(c2.run_id, c.run_id)

    def test_communicate_pipes_and_status(self):
        c = self.cfg.spawn("sh", ['read x; echo "out $x"; echo err >&2; exit 3'],
                           stdin=ruas.PIPE, stdout=ruas.PIPE, stderr=ruas.PIPE)
        self.assertEqual(c.communicate(b"in\n", timeout=30), (b"out in\n", b"err\n"))
        self.assertEqual(c.returncode, 3)
        c.close()

    def test_text_mode_and_stderr_to_stdout(self):
        with self.cfg.spawn("sh", ["echo a; echo b >&2"], stdout=ruas.PIPE,
                            stderr=ruas.STDOUT, text=True) as c:
            out, err = c.communicate(timeout=30)
        self.assertEqual(sorted(out.split()), ["a", "b"])
        self.assertIsNone(err)

    def test_devnull_and_file_descriptor(self):
        with tempfile.TemporaryFile() as f:
            c = self.cfg.spawn("sh", ["cat; echo done"], stdin=ruas.DEVNULL, stdout=f)
            self.assertEqual(c.wait(timeout=30), 0)
            f.seek(0)
            self.assertEqual(f.read(), b"done\n")
            c.close()

    def test_large_output(self):
        c = self.cfg.spawn("sh", ["head -c 10485760 /dev/zero"], stdout=ruas.PIPE)
        out, _ = c.communicate(timeout=60)
        self.assertEqual(len(out), 10485760)

    def test_signals_and_returncode(self):
        c = self.cfg.spawn("sh", ["exec sleep 30"])
        self.assertIsNone(c.poll())
        with self.assertRaises(ruas.TimeoutExpired):
            c.wait(timeout=0.2)
        c.send_signal(signal.SIGINT)
        self.assertEqual(c.wait(timeout=30), -signal.SIGINT)
        c.close()
        c = self.cfg.spawn("sh", ["exit 130"])
        self.assertEqual(c.wait(timeout=30), 130)  # not -2: the status tells them apart
        c.close()
        with self.cfg.spawn("sh", ["exec sleep 30"]) as c:
            c.kill()
        self.assertEqual(c.returncode, -signal.SIGKILL)

    def test_exceptions_are_subprocess_ones(self):
        # As Popen's: a ruas.Error is a subprocess.SubprocessError, a failed
        # system call an OSError with its errno (issue 26).
        self.assertTrue(issubclass(ruas.Error, subprocess.SubprocessError))
        self.assertTrue(issubclass(ruas.SystemCallError, OSError))
        e = ruas.SystemCallError("open /x: No such file", -3, None, 0, errno.ENOENT)
        self.assertEqual(e.errno, errno.ENOENT)
        self.assertEqual(str(e), "[Errno 2] open /x: No such file")
        self.assertEqual(str(ruas.SystemCallError("no errno", -3)), "no errno")
        try:
            raise e
        except OSError as caught:
            self.assertIs(caught, e)
        # A signal number that is none: refused by the library, a ruas.Error.
        c = self.cfg.spawn("sh", ["exec sleep 30"])
        with self.assertRaises(subprocess.SubprocessError) as cm:
            c.send_signal(12345)
        self.assertIsInstance(cm.exception, ruas.InvalidError)
        self.assertIn("is not a signal", str(cm.exception))
        # TimeoutExpired.cmd is the whole command, the project's and the arguments.
        with self.assertRaises(ruas.TimeoutExpired) as tm:
            c.wait(timeout=0.2)
        self.assertEqual(tm.exception.cmd, ["/bin/sh", "-c", "exec sleep 30"])
        self.assertIn("'/bin/sh', '-c', 'exec sleep 30'", str(tm.exception))
        c.kill()
        c.wait(timeout=30)
        c.close()

    def test_communicate_timeout_keeps_output(self):
        c = self.cfg.spawn("sh", ["echo first; sleep 1; echo second"], stdout=ruas.PIPE)
        with self.assertRaises(ruas.TimeoutExpired):
            c.communicate(timeout=0.3)
        out, _ = c.communicate(timeout=30)
        self.assertEqual(out, b"first\nsecond\n")
        c.close()

    def test_a_fork_never_ends_the_parents_agent(self):
        c = self.cfg.spawn("sh", ["exec sleep 30"])
        pid = os.fork()
        if pid == 0:
            c.close()  # the child's copy of the handle: must not free it
            del c
            os._exit(0)
        os.waitpid(pid, 0)
        self.assertIsNone(c.poll(), "the agent still runs after the fork's close")
        c.kill()
        self.assertEqual(c.wait(30), -signal.SIGKILL)
        c.close()

    def test_communicate_large_input_and_output_at_once(self):
        data = os.urandom(4 << 20)
        c = self.cfg.spawn("sh", ["cat"], stdin=ruas.PIPE, stdout=ruas.PIPE)
        out, _ = c.communicate(data, timeout=60)
        self.assertEqual(out, data)
        c.close()

    def test_close_while_another_thread_waits(self):
        c = self.cfg.spawn("sh", ["exec sleep 30"])
        got = []
        t = threading.Thread(target=lambda: got.append(c.wait()))
        t.start()
        time.sleep(0.2)
        c.close()  # ends the tree, then frees: the wait returns first, no crash
        t.join(30)
        self.assertEqual(got, [-signal.SIGKILL])
        self.assertEqual(c.poll(), -signal.SIGKILL)  # what is known stays known
        with self.assertRaises(ValueError):
            c.pidfd  # the handle is gone

    def test_wait_is_interruptible(self):
        c = self.cfg.spawn("sh", ["exec sleep 30"])

        def boom(signum, frame):
            raise KeyboardInterrupt
        old = signal.signal(signal.SIGALRM, boom)
        t0 = time.monotonic()
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            with self.assertRaises(KeyboardInterrupt):
                c.wait()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        self.assertLess(time.monotonic() - t0, 10)
        c.kill()
        self.assertEqual(c.wait(30), -signal.SIGKILL)
        c.close()

    def test_wait_timeout_with_many_descriptors(self):
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard < 2048:
            self.skipTest("RLIMIT_NOFILE hard limit %d < 2048" % hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (2048, hard))
        fds = [os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC) for _ in range(1100)]
        try:
            c = self.cfg.spawn("sh", ["exit 4"])
            self.assertGreater(c.pidfd, 1024)
            self.assertEqual(c.wait(timeout=30), 4)
            c.close()
        finally:
            for fd in fds:
                os.close(fd)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    def test_bad_arguments_refused_without_leaks(self):
        before = len(os.listdir("/proc/self/fd"))
        for bad in (dict(stdout=-5), dict(stdout=object())):
            with self.assertRaises((ValueError, AttributeError, TypeError)):
                self.cfg.spawn("sh", ["true"], stdin=ruas.PIPE, **bad)
        with self.assertRaises(TypeError):
            self.cfg.spawn("sh", [0])
        for env in ({"TOKEN=evil": "x"}, {"": "x"}):
            with self.assertRaises(ValueError):
                self.cfg.spawn("argv", env=env, stdout=ruas.DEVNULL)
        with self.assertRaises(ValueError):
            self.cfg.spawn("argv", set_env={"TOKEN=x": "y"})
        self.assertEqual(len(os.listdir("/proc/self/fd")), before)

    def test_pidfd_and_not_found(self):
        c = self.cfg.spawn("sh", ["exit 0"])
        if c.pidfd >= 0:
            import select
            self.assertTrue(select.select([c.pidfd], [], [], 30)[0])
        self.assertEqual(c.wait(), 0)
        c.close()
        with self.assertRaises(ruas.NotFoundError):
            self.cfg.spawn("nope")

    def test_start_errors_are_popens(self):
        # What Popen raises for a command it cannot run, with the stage and the file.
        self.cfg.add_project(name="gone", work_dir=WORK, command=["/nonexistent/ruas-cmd"])
        self.cfg.add_project(name="dir", work_dir=WORK, command=["/"])
        with self.assertRaises(FileNotFoundError) as cm:
            self.cfg.spawn("gone", stdout=ruas.DEVNULL)
        e = cm.exception
        self.assertIsInstance(e, ruas.StartError)
        self.assertIsInstance(e, ruas.Error)
        self.assertIsInstance(e, subprocess.SubprocessError)
        self.assertEqual((e.stage, e.errno, e.filename), ("exec", errno.ENOENT, "/nonexistent/ruas-cmd"))
        with self.assertRaises(PermissionError) as cm:
            self.cfg.spawn("dir", stdout=ruas.DEVNULL)
        self.assertEqual((cm.exception.stage, cm.exception.errno), ("exec", errno.EACCES))
        with self.assertRaises(ruas.StartError) as cm:
            self.cfg.spawn("sh", ["true"], work_dir="missing")
        self.assertEqual((cm.exception.stage, cm.exception.errno), ("work_dir", errno.ENOENT))
        self.assertIsInstance(cm.exception, FileNotFoundError)

    def test_arguments_over_execs_limit(self):
        with self.assertRaises(ruas.TooLongError) as cm:
            self.cfg.spawn("sh", ["true", "x" * 200000])
        self.assertEqual(cm.exception.errno, errno.E2BIG)
        self.assertIn("MAX_ARG_STRLEN", cm.exception.message)
        c = self.cfg.spawn("sh", ["true", "x" * 131071])
        self.assertEqual(c.wait(), 0)
        c.close()

    def test_threads_wait_with_the_gil_released(self):
        kids = [self.cfg.spawn("sh", ["sleep 1"]) for _ in range(4)]
        t0 = time.monotonic()
        threads = [threading.Thread(target=k.wait) for k in kids]
        for t in threads:
            t.start()
        ticks = 0
        while any(t.is_alive() for t in threads):
            ticks += 1
            time.sleep(0.01)
        self.assertGreater(ticks, 20)  # this thread ran meanwhile
        self.assertLess(time.monotonic() - t0, 10)
        for k in kids:
            self.assertEqual(k.returncode, 0)
            k.close()


class AsyncioTests(Base):
    def test_process_interface(self):
        async def main():
            p = await rasyncio.spawn(self.cfg, "sh", ['while read l; do echo "<$l>"; done'],
                                     stdin=ruas.PIPE, stdout=ruas.PIPE)
            p.stdin.write(b"one\n")
            await p.stdin.drain()
            self.assertEqual(await p.stdout.readline(), b"<one>\n")
            out, _ = await p.communicate(b"two\n")
            self.assertEqual(out, b"<two>\n")
            self.assertEqual(await p.wait(), 0)
            q = await rasyncio.spawn(self.cfg, "sh", ["exec sleep 30"])
            q.terminate()
            self.assertEqual(await asyncio.wait_for(q.wait(), 30), -signal.SIGTERM)
        asyncio.run(main())


WORK = tempfile.mkdtemp(prefix="ruas-py-unit.")

if __name__ == "__main__":
    unittest.main(verbosity=2)
