# SPDX-License-Identifier: ISC
"""_config - ruas.Config: a configuration of projects, loaded or built in code."""
import ctypes
import json
import os
import threading
import warnings
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Sequence, Union

from . import _errors, _lib
from ._handle import Handle


@dataclass(frozen=True)
class Item:
    """One finding of a preflight: check id, "fatal" or "warning", the full text,
    and what it is about and what to do (ruas_report_item_user/_path/_fix):
    the OS user, the file or directory, and the fix in the text's own words
    (never None for a fatal item); None where none applies."""
    check: str
    severity: str
    text: str
    user: Optional[str] = None
    path: Optional[str] = None
    fix: Optional[str] = None


@dataclass(frozen=True)
class ProjectReport:
    """A project's findings, in the order the checks gave them."""
    name: str
    items: List[Item] = field(default_factory=list)

    @property
    def fatal(self) -> bool:
        return any(i.severity == "fatal" for i in self.items)


@dataclass(frozen=True)
class Unjudged:
    """What a check could not judge because only root can read it."""
    what: str
    path: str


@dataclass(frozen=True)
class Report:
    """What ruas_preflight() found: fatal when any project (or the host) has a fatal finding.

    host: findings about the host, shown once (such as check "proc"); unjudged:
    what this supervisor could not read (root's check judges it)."""
    fatal: bool
    projects: List[ProjectReport]
    host: List[Item] = field(default_factory=list)
    unjudged: List[Unjudged] = field(default_factory=list)

    def __getitem__(self, name: str) -> ProjectReport:
        for p in self.projects:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass(frozen=True)
class Credential:
    """One credential the supervisor hands a run on request (ruas.conf(5)
    "credentials", docs/credentials.md): its name and exactly one source,
    from_env (a variable of the spawn's env), from_command (a list: its
    stdout; ttl: seconds its output is kept) or from_file (absolute, readable
    only by the supervisor). Config.new() and add_project() take these or
    dicts with the same keys; the library judges them as the file's."""
    name: str
    from_env: Optional[str] = None
    from_command: Optional[Sequence[str]] = None
    from_file: Optional[str] = None
    ttl: Optional[int] = None


_CREDENTIAL_KEYS = ("name", "from_env", "from_command", "from_file", "ttl")


def _credentials(items):
    """A credentials list as the C array and its count, (None, 0) for None. Each item a
    Credential or a mapping of its keys; a key it does not have, a from_command that is
    a string, a ttl that is not an int, is a TypeError before C sees any of it."""
    if items is None:
        return None, 0
    if isinstance(items, (str, bytes, Mapping, Credential)):
        raise TypeError("ruas: credentials is a list of credentials (ruas.Credential or "
                        "dicts), not %s" % type(items).__name__)
    specs = []
    for c in items:
        if isinstance(c, Mapping):
            bad = [k for k in c if k not in _CREDENTIAL_KEYS]
            if bad:
                raise TypeError("ruas: a credential has no key %r (it has %s)"
                                % (bad[0], ", ".join(_CREDENTIAL_KEYS)))
            # No name crosses as NULL: the library's own message says it is missing.
            c = Credential(**dict({"name": None}, **c))
        elif not isinstance(c, Credential):
            raise TypeError("ruas: a credential is a ruas.Credential or a dict, not %s"
                            % type(c).__name__)
        if isinstance(c.from_command, (str, bytes)):
            raise TypeError("ruas: credential %r: from_command is a list of arguments, "
                            "not a string" % (c.name,))
        if c.ttl is not None and (isinstance(c.ttl, bool) or not isinstance(c.ttl, int)):
            raise TypeError("ruas: credential %r: ttl is an int (seconds), not %s"
                            % (c.name, type(c.ttl).__name__))
        specs.append(c)
    arr = (_lib.CredentialSpec * max(len(specs), 1))()
    for i, c in enumerate(specs):
        # The name is required: None crosses as NULL, which the library refuses by name.
        arr[i].name = _lib.encode(c.name)
        arr[i].from_env = _lib.encode(c.from_env)
        arr[i].from_command = _lib.strv(c.from_command)
        arr[i].from_file = _lib.encode(None if c.from_file is None else os.fspath(c.from_file))
        arr[i].ttl = _lib.RUAS_UNSET if c.ttl is None else _count(c.ttl)
    return ctypes.cast(arr, ctypes.POINTER(_lib.CredentialSpec)), len(specs)


class _Credentials:
    """A per-spawn credentials callable behind ruas_spawn_options.credential_callback:
    fn(project, name) returns the value (str or bytes), None when it has no
    credential by that name; an exception is a failure (the agent is told the
    source failed, the audit record says the callback failed). Called in the
    child's credential thread, with the GIL taken (ctypes does), for each request
    of a name that no configured source has, until the child is freed."""

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError("ruas: credentials is a callable (project, name) -> str | None")
        self.fn = fn
        self.failures = 0
        self.error = None
        self.lock = threading.Lock()
        self.trampoline = _lib.CredentialCallback(self._call)  # kept: C holds its address

    def _call(self, project, name, value, value_size, _payload):
        try:
            v = self.fn(_lib.text(project), _lib.text(name))
            if v is None:
                return 0
            b = _lib.encode(v)  # str or bytes; a NUL is a ValueError
            if not b:
                raise ValueError("ruas: credential %r: the callable gave an empty value"
                                 % _lib.text(name))
            if len(b) >= value_size:
                raise ValueError("ruas: credential %r: the callable's value is %d bytes, over "
                                 "the %d a credential can have"
                                 % (_lib.text(name), len(b), value_size - 1))
            ctypes.memmove(value, b, len(b))
            ctypes.memset(value + len(b), 0, 1)
            return len(b)
        except BaseException as e:  # it runs inside C: nothing may escape
            with self.lock:
                self.failures += 1
                self.error = e
            warnings.warn("ruas: the credentials callable failed on %r: %s"
                          % (_lib.text(name), type(e).__name__), RuntimeWarning, stacklevel=1)
            return -1


_SEVERITY = {1: "warning", 2: "fatal"}


def _report_of(rep) -> Report:
    lib = _lib.lib
    projects = []
    for p in range(lib.ruas_report_project_count(rep)):
        items = [Item(_lib.text(lib.ruas_report_item_check(rep, p, i)),
                      _SEVERITY.get(lib.ruas_report_item_severity(rep, p, i), "none"),
                      _lib.text(lib.ruas_report_item_text(rep, p, i)),
                      _lib.text(lib.ruas_report_item_user(rep, p, i)),
                      _lib.text(lib.ruas_report_item_path(rep, p, i)),
                      _lib.text(lib.ruas_report_item_fix(rep, p, i)))
                 for i in range(lib.ruas_report_item_count(rep, p))]
        projects.append(ProjectReport(_lib.text(lib.ruas_report_project_name(rep, p)), items))
    host = [Item(_lib.text(lib.ruas_report_host_check(rep, i)),
                 _SEVERITY.get(lib.ruas_report_host_severity(rep, i), "none"),
                 _lib.text(lib.ruas_report_host_text(rep, i)),
                 None,
                 _lib.text(lib.ruas_report_host_path(rep, i)),
                 _lib.text(lib.ruas_report_host_fix(rep, i)))
            for i in range(lib.ruas_report_host_count(rep))]
    unjudged = [Unjudged(_lib.text(lib.ruas_report_unjudged_what(rep, i)),
                         _lib.text(lib.ruas_report_unjudged_path(rep, i)))
                for i in range(lib.ruas_report_unjudged_count(rep))]
    return Report(bool(lib.ruas_report_has_fatal(rep)), projects, host, unjudged)


def _count(v):
    """A number of seconds, bytes or descriptors as C's int (None stays None). A negative one
    (-1 would be RUAS_UNSET, absent) or one C's int cannot hold (ctypes would wrap
    it into one the library takes) goes as INT_MIN, which the library refuses
    with its own message."""
    if v is None:
        return None
    v = int(v)
    return v if 0 <= v <= 0x7fffffff else -0x80000000


def _file_size(v):
    """file_size_max as the C string it crosses as: an int is bytes, in decimal; a str
    as written ("64M"). The library judges either, with the file's message."""
    if v is None:
        return None
    # A bool is an int to Python: True must not become a limit of 1 byte.
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise TypeError("ruas: file_size_max is an int (bytes) or a str such as \"64M\", "
                        "not %s" % type(v).__name__)
    return _lib.encode("%d" % v if isinstance(v, int) else v)


def _bytes(key, v):
    """memory_max or memory_swap_max as the C string: as _file_size() does file_size_max."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise TypeError("ruas: %s is an int (bytes) or a str such as \"64M\", not %s"
                        % (key, type(v).__name__))
    return _lib.encode("%d" % v if isinstance(v, int) else v)


def _cpus(v):
    """cpu_max as the C string: CPUs, an int or float (0.5) or a str ("1.5"), in decimal as
    written; the library judges it (0.01 to 1024, at most three decimals)."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise TypeError("ruas: cpu_max is a number of CPUs (0.5) or a str (\"0.5\"), not %s"
                        % type(v).__name__)
    if isinstance(v, float):
        # repr() is the shortest text that reads back as v: 0.1 stays "0.1".
        return _lib.encode(repr(v))
    return _lib.encode("%d" % v if isinstance(v, int) else v)


def _core_dumps(v, key="core_dumps"):
    """core_dumps (or require_command) as the C int: a bool (an int 0 or 1 too; any other
    the library refuses). Anything else, such as the str "false", which is true, is a
    TypeError."""
    if not isinstance(v, int):
        raise TypeError("ruas: %s is a bool, not %s" % (key, type(v).__name__))
    # Through _count(): 2**32 + 1 must not reach C as 1 (core dumps on).
    return _count(v)


def _options(supervisor_uid, skip_owner_check):
    o = _lib.options(_lib.ConfigOptions, _lib.CONFIG_OPTIONS_VERSION,
                     skip_owner_check=1 if skip_owner_check else 0)
    if supervisor_uid is not None:
        o.supervisor_uid = supervisor_uid
    return ctypes.byref(o), o


class _Audit:
    """An audit callable behind the C sink: each record as a dict (its JSON's
    keys, and "line", the syslog form), called in the thread that made it. A
    record the callable could not take (it raised) is counted, kept as
    audit_error and warned of, never dropped in silence."""

    def __init__(self, fn):
        if not callable(fn):
            raise TypeError("ruas: audit is a callable taking a record dict")
        self.fn = fn
        self.failures = 0
        self.error = None
        self.lock = threading.Lock()
        self.trampoline = _lib.AuditCallback(self._call)  # kept: C holds its address
        self.sink = _lib.options(_lib.AuditSink, _lib.AUDIT_SINK_VERSION,
                                 to=_lib.AUDIT_TO_CALLBACK, callback=self.trampoline)

    def _call(self, rec, _payload):
        try:
            r = rec.contents
            record = json.loads(r.json.decode("utf-8", "surrogateescape"))
            record["line"] = r.line.decode("utf-8", "surrogateescape")
            self.fn(record)
        except BaseException as e:  # it runs inside C: nothing may escape
            with self.lock:
                self.failures += 1
                self.error = e
            warnings.warn("ruas: the audit callable failed on a record: %r" % (e,),
                          RuntimeWarning, stacklevel=1)


class Config:
    """A ruas configuration (ruas_config). Thread-safe as libruas is: any
    thread may preflight and spawn at once; add_project() must not race
    them. Build one with Config.load() or Config.new(); audit=callable gets
    each audit record (start, end, check) as a dict instead of syslog (the
    configuration's audit_log file still gets them all)."""

    def __init__(self, _handle, audit=None):
        self._h = Handle("configuration")  # close() waits for the calls in progress
        self._h.h = _handle
        self._audit = _Audit(audit) if audit is not None else None

    @property
    def audit_failures(self) -> int:
        """How many records the audit callable raised on (0 without one)."""
        return self._audit.failures if self._audit else 0

    @property
    def audit_undelivered(self) -> int:
        """How many audit records no sink took (syslog that did not read in time)."""
        with self._use() as h:
            return _lib.lib.ruas_config_audit_undelivered(h)

    @property
    def audit_error(self):
        """The last exception the audit callable raised, or None."""
        return self._audit.error if self._audit else None

    @classmethod
    def load(cls, path, *, supervisor_uid: Optional[int] = None,
             skip_owner_check: bool = False, audit=None) -> "Config":
        """Loads ruas.conf from path (ruas_config_load); ConfigError names the line."""
        h, err = _lib.P(), _errors.new_err()
        opts, _keep = _options(supervisor_uid, skip_owner_check)
        _errors.check(_lib.lib.ruas_config_load(ctypes.byref(h), _lib.encode(os.fspath(path)),
                                                opts, ctypes.byref(err)), err)
        return cls(h, audit)

    @classmethod
    def new(cls, *, name: Optional[str] = None, env_allowlist: Optional[Sequence[str]] = None,
            sudo: Optional[str] = None, helper: Optional[str] = None,
            session_helper: Optional[str] = None, backend: Optional[str] = None,
            pam_service: Optional[str] = None, terminate_grace: Optional[int] = None,
            lifetime: Optional[str] = None, scan_prune: Optional[Sequence[str]] = None,
            scan_time_limit: Optional[int] = None,
            target_sudo_allowed: Optional[Sequence[str]] = None,
            supervisor_uid: Optional[int] = None, audit_facility: Optional[str] = None,
            audit_log: Optional[str] = None, audit_argv: Optional[str] = None,
            audit_argv_max: Optional[int] = None, host_check_interval: Optional[int] = None,
            open_files_max: Optional[int] = None,
            file_size_max: Optional[Union[int, str]] = None,
            core_dumps: Optional[bool] = None, wall_time_max: Optional[int] = None,
            memory_max: Optional[Union[int, str]] = None,
            memory_swap_max: Optional[Union[int, str]] = None,
            tasks_max: Optional[int] = None, cpu_max: Optional[Union[float, str]] = None,
            cgroup_parent: Optional[str] = None,
            require_command: Optional[bool] = None,
            credentials: Optional[Sequence[Union[Credential, Mapping[str, Any]]]] = None,
            audit=None) -> "Config":
        """An empty configuration with ruas.conf's top-level keys (ruas_config_new);
        None keeps each key's default. The limits of every project's runs:
        open_files_max, file_size_max (an int of bytes or a str such as "64M"),
        core_dumps (a bool), wall_time_max (seconds; 0: none); and in a cgroup v2
        of each run's own, beneath cgroup_parent: memory_max and memory_swap_max
        (as file_size_max), tasks_max (an int), cpu_max (CPUs: 0.5 or "0.5").
        require_command (a bool): whether a project whose command its target's
        login PATH does not find fails preflight (True) or warns (the default).
        credentials: every project's (ruas.Credential or dicts of its keys)."""
        def num(v):
            # Every number through _count(): -1 must not pass as absent, nor 2^32 as 0.
            return _lib.RUAS_UNSET if v is None else _count(v)
        g = _lib.options(_lib.ConfigGlobals, _lib.CONFIG_GLOBALS_VERSION,
                         name=_lib.encode(name), env_allowlist=_lib.strv(env_allowlist),
                         sudo=_lib.encode(sudo), helper=_lib.encode(helper),
                         session_helper=_lib.encode(session_helper),
                         scan_prune=_lib.strv(scan_prune), scan_time_limit=num(scan_time_limit),
                         backend=_lib.encode(backend), pam_service=_lib.encode(pam_service),
                         terminate_grace=num(terminate_grace),
                         target_sudo_allowed=_lib.strv(target_sudo_allowed),
                         lifetime=_lib.encode(lifetime),
                         audit_facility=_lib.encode(audit_facility),
                         audit_log=_lib.encode(audit_log), audit_argv=_lib.encode(audit_argv),
                         audit_argv_max=num(audit_argv_max),
                         host_check_interval=num(host_check_interval),
                         open_files_max=num(open_files_max),
                         file_size_max=_file_size(file_size_max),
                         core_dumps=_lib.RUAS_UNSET if core_dumps is None
                         else _core_dumps(core_dumps),
                         wall_time_max=num(wall_time_max),
                         memory_max=_bytes("memory_max", memory_max),
                         memory_swap_max=_bytes("memory_swap_max", memory_swap_max),
                         tasks_max=num(tasks_max), cpu_max=_cpus(cpu_max),
                         cgroup_parent=_lib.encode(cgroup_parent),
                         require_command=_lib.RUAS_UNSET if require_command is None
                         else _core_dumps(require_command, "require_command"))
        g.credentials, g.credential_count = _credentials(credentials)
        h, err = _lib.P(), _errors.new_err()
        opts, _keep = _options(supervisor_uid, False)
        _errors.check(_lib.lib.ruas_config_new(ctypes.byref(h), ctypes.byref(g), opts,
                                               ctypes.byref(err)), err)
        return cls(h, audit)

    def add_project(self, *, name: str, work_dir: str, command: Sequence[str],
                    run_as_user: Optional[str] = None,
                    env_allowlist: Optional[Sequence[str]] = None, person: Optional[str] = None,
                    terminate_grace: Optional[int] = None, backend: Optional[str] = None,
                    pam_service: Optional[str] = None, lifetime: Optional[str] = None,
                    deny_settings_args: Optional[Sequence[str]] = None,
                    scan_prune: Optional[Sequence[str]] = None,
                    target_sudo_allowed: Optional[Sequence[str]] = None,
                    open_files_max: Optional[int] = None,
                    file_size_max: Optional[Union[int, str]] = None,
                    core_dumps: Optional[bool] = None,
                    wall_time_max: Optional[int] = None,
                    memory_max: Optional[Union[int, str]] = None,
                    memory_swap_max: Optional[Union[int, str]] = None,
                    tasks_max: Optional[int] = None,
                    cpu_max: Optional[Union[float, str]] = None,
                    require_command: Optional[bool] = None,
                    credentials: Optional[Sequence[Union[Credential, Mapping[str, Any]]]]
                    = None) -> None:
        """Adds a project, checked as the file's would be (ruas_config_add_project):
        a value the file would refuse raises ConfigError naming it. The limits
        are Config.new()'s, the project's own winning; None: the global one.
        credentials: its own, each replacing a global one of the same name."""
        if isinstance(command, (str, bytes)):
            raise TypeError("ruas: command is a list of arguments, not a string")
        s = _lib.options(_lib.ProjectSpec, _lib.PROJECT_SPEC_VERSION,
                         name=_lib.encode(name), work_dir=_lib.encode(work_dir),
                         command=_lib.strv(command), run_as_user=_lib.encode(run_as_user),
                         env_allowlist=_lib.strv(env_allowlist), person=_lib.encode(person),
                         deny_settings_args=_lib.strv(deny_settings_args),
                         scan_prune=_lib.strv(scan_prune),
                         target_sudo_allowed=_lib.strv(target_sudo_allowed),
                         backend=_lib.encode(backend), pam_service=_lib.encode(pam_service),
                         lifetime=_lib.encode(lifetime), file_size_max=_file_size(file_size_max),
                         memory_max=_bytes("memory_max", memory_max),
                         memory_swap_max=_bytes("memory_swap_max", memory_swap_max),
                         cpu_max=_cpus(cpu_max))
        if terminate_grace is not None:
            s.terminate_grace = _count(terminate_grace)
        if open_files_max is not None:
            s.open_files_max = _count(open_files_max)
        if core_dumps is not None:
            s.core_dumps = _core_dumps(core_dumps)
        if wall_time_max is not None:
            s.wall_time_max = _count(wall_time_max)
        if tasks_max is not None:
            s.tasks_max = _count(tasks_max)
        if require_command is not None:
            s.require_command = _core_dumps(require_command, "require_command")
        s.credentials, s.credential_count = _credentials(credentials)
        err = _errors.new_err()
        with self._use() as h:
            _errors.check(_lib.lib.ruas_config_add_project(h, ctypes.byref(s),
                                                           ctypes.byref(err)), err)

    def preflight(self, *, max_parallel: int = 0) -> Report:
        """Runs every project's startup checks in parallel (ruas_preflight), the GIL
        released meanwhile. A finding is in the report, not an exception: look at
        .fatal before spawning."""
        rep, err = _lib.P(), _errors.new_err()
        o = _lib.options(_lib.PreflightOptions, _lib.PREFLIGHT_OPTIONS_VERSION,
                         max_parallel=max_parallel)
        if self._audit:
            o.audit = ctypes.pointer(self._audit.sink)
        with self._use() as h:
            _errors.check(_lib.lib.ruas_preflight(ctypes.byref(rep), h, ctypes.byref(o),
                                                  ctypes.byref(err)), err)
        try:
            return _report_of(rep)
        finally:
            _lib.lib.ruas_report_free(rep)

    def spawn(self, project: str, args: Sequence[str] = (), **kw):
        """Starts project's command with args appended; see ruas.Child for the keywords."""
        from ._child import Child
        return Child(self, project, args, **kw)

    @property
    def path(self) -> str:
        with self._use() as h:
            return _lib.text(_lib.lib.ruas_config_path(h))

    @property
    def projects(self) -> List[str]:
        with self._use() as h:
            return [_lib.text(_lib.lib.ruas_project_name(_lib.lib.ruas_config_project_at(h, i)))
                    for i in range(_lib.lib.ruas_config_project_count(h))]

    def project(self, name: str) -> dict:
        """A project's settings as loaded: name, work_dir, command, run_as_user, ...;
        wall_time_max and open_files_max in force (0: none, and as the run gets it);
        memory_max, memory_swap_max and tasks_max (0: none), cpu_max (None: none)."""
        lib = _lib.lib
        with self._use() as h:
            p = lib.ruas_config_project_find(h, _lib.encode(name))
            if not p:
                raise _errors.NotFoundError("no project named %r in %s" % (
                    name, _lib.text(lib.ruas_config_path(h))))
            return {"name": _lib.text(lib.ruas_project_name(p)),
                    "work_dir": _lib.text(lib.ruas_project_work_dir(p)),
                    "command": _lib.strv_list(lib.ruas_project_command(p)),
                    "run_as_user": _lib.text(lib.ruas_project_run_as_user(p)),
                    "person": _lib.text(lib.ruas_project_person(p)),
                    "backend": _lib.text(lib.ruas_project_backend(p)),
                    "terminate_grace": lib.ruas_project_terminate_grace(p),
                    "wall_time_max": lib.ruas_project_wall_time_max(p),
                    "open_files_max": lib.ruas_project_open_files_max(p),
                    "file_size_max": int(lib.ruas_project_file_size_max(p) or 0),
                    "core_dumps": bool(lib.ruas_project_core_dumps(p)),
                    "require_command": bool(lib.ruas_project_require_command(p)),
                    "memory_max": int(_lib.text(lib.ruas_project_memory_max(p)) or 0),
                    "memory_swap_max": int(_lib.text(lib.ruas_project_memory_swap_max(p)) or 0),
                    "tasks_max": lib.ruas_project_tasks_max(p),
                    "cpu_max": _lib.text(lib.ruas_project_cpu_max(p)),
                    "env_allowlist": _lib.strv_list(lib.ruas_project_env_allowlist(p))}

    def _use(self):
        return self._h.use()

    def close(self) -> None:
        """Frees the C handle once the calls in progress on it (other threads') are done.
        Children spawned from it go on: they hold nothing of it."""
        h = self._h.take()
        if h:
            _lib.lib.ruas_config_free(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass
