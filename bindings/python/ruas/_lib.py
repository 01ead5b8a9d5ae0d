# SPDX-License-Identifier: ISC
"""_lib - libruas through ctypes: the library, its structs and its prototypes.

Only this module knows the C layout. Every struct is versioned in C
(ruas.h); the versions here are the ones this binding was written against,
so a newer libruas.so.0 reads them as such, and each struct starts from the
defaults the library's ruas_<struct>_init() gives for that version (options()),
never from defaults copied here. bindings/python/tests/test_unit.py holds
the layouts against the C compiler's.
"""
import ctypes
import os

try:
    from ._paths import LIBRARY as _INSTALLED
except ImportError:  # the source tree: RUAS_LIBRARY names the build's
    _INSTALLED = None

RUAS_UNSET = -1
CONFIG_OPTIONS_VERSION = 1
PROJECT_SPEC_VERSION = 6
SPAWN_OPTIONS_VERSION = 6
CONFIG_GLOBALS_VERSION = 8
PREFLIGHT_OPTIONS_VERSION = 3
AUDIT_SINK_VERSION = 1
AUDIT_TO_CALLBACK = 2
PTY_AUTO = -1
PTY_RELAY_LIBRARY = 0


class _Opaque(ctypes.Structure):
    pass


P = ctypes.POINTER(_Opaque)  # every ruas_* handle
PP = ctypes.POINTER(P)
c_str = ctypes.c_char_p
c_strv = ctypes.POINTER(ctypes.c_char_p)


class ConfigOptions(ctypes.Structure):
    _init_ = "ruas_config_options_init"
    _fields_ = [("version", ctypes.c_uint), ("supervisor_uid", ctypes.c_uint),
                ("skip_owner_check", ctypes.c_int)]


class CredentialSpec(ctypes.Structure):
    """ruas_credential_spec: one credential of ruas.conf's credentials key (no version of
    its own: the globals' and the project spec's say it)."""
    _fields_ = [("name", c_str), ("from_env", c_str), ("from_command", c_strv),
                ("from_file", c_str), ("ttl", ctypes.c_int)]


class GitHostSpec(ctypes.Structure):
    """ruas_git_host_spec: one host of ruas.conf's git_hosts key (versioned with the
    globals and the project spec, as CredentialSpec is)."""
    _fields_ = [("host", c_str), ("credential", c_str), ("username", c_str),
                ("protocol", c_str)]


class ConfigGlobals(ctypes.Structure):
    _init_ = "ruas_config_globals_init"
    _fields_ = [("version", ctypes.c_uint), ("name", c_str), ("env_allowlist", c_strv),
                ("sudo", c_str), ("helper", c_str), ("session_helper", c_str),
                ("scan_prune", c_strv), ("scan_time_limit", ctypes.c_int),
                ("backend", c_str), ("pam_service", c_str), ("terminate_grace", ctypes.c_int),
                ("target_sudo_allowed", c_strv), ("lifetime", c_str),
                # version 2
                ("audit_facility", c_str), ("audit_log", c_str), ("audit_argv", c_str),
                ("audit_argv_max", ctypes.c_int),
                # version 3
                ("host_check_interval", ctypes.c_int),
                # version 4: the limits of each run
                ("open_files_max", ctypes.c_int), ("file_size_max", c_str),
                ("core_dumps", ctypes.c_int), ("wall_time_max", ctypes.c_int),
                # version 5: a cgroup v2 of each run's own
                ("memory_max", c_str), ("memory_swap_max", c_str), ("tasks_max", ctypes.c_int),
                ("cpu_max", c_str), ("cgroup_parent", c_str),
                # version 6
                ("require_command", ctypes.c_int),
                # version 7
                ("credentials", ctypes.POINTER(CredentialSpec)),
                ("credential_count", ctypes.c_size_t),
                ("git_hosts", ctypes.POINTER(GitHostSpec)),
                ("git_host_count", ctypes.c_size_t),
                # version 8 (project spec: 6)
                ("claude_api_key", c_str)]


class AuditRecord(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint), ("event", c_str), ("run", c_str), ("line", c_str),
                ("json", c_str)]


AuditCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(AuditRecord), ctypes.c_void_p)


# ruas_credential_callback(project, name, value, value_size, payload): the value's
# length, 0 for none by that name, -1 for failed. value is a buffer of
# value_size bytes (a c_void_p here: ctypes must not read it as a string).
CredentialCallback = ctypes.CFUNCTYPE(ctypes.c_int, c_str, c_str, ctypes.c_void_p,
                                      ctypes.c_size_t, ctypes.c_void_p)


class AuditSink(ctypes.Structure):
    _init_ = "ruas_audit_sink_init"
    _fields_ = [("version", ctypes.c_uint), ("to", ctypes.c_int), ("callback", AuditCallback),
                ("payload", ctypes.c_void_p), ("fd", ctypes.c_int)]


class ProjectSpec(ctypes.Structure):
    _init_ = "ruas_project_spec_init"
    _fields_ = [("version", ctypes.c_uint), ("name", c_str), ("work_dir", c_str),
                ("command", c_strv), ("run_as_user", c_str), ("env_allowlist", c_strv),
                ("person", c_str), ("deny_settings_args", c_strv), ("scan_prune", c_strv),
                ("target_sudo_allowed", c_strv), ("backend", c_str), ("pam_service", c_str),
                ("terminate_grace", ctypes.c_int), ("lifetime", c_str),
                # version 2: the limits of its runs
                ("open_files_max", ctypes.c_int), ("file_size_max", c_str),
                ("core_dumps", ctypes.c_int), ("wall_time_max", ctypes.c_int),
                # version 3: its runs' cgroup limits
                ("memory_max", c_str), ("memory_swap_max", c_str), ("tasks_max", ctypes.c_int),
                ("cpu_max", c_str),
                # version 4
                ("require_command", ctypes.c_int),
                # version 5
                ("credentials", ctypes.POINTER(CredentialSpec)),
                ("credential_count", ctypes.c_size_t),
                ("git_hosts", ctypes.POINTER(GitHostSpec)),
                ("git_host_count", ctypes.c_size_t),
                # version 8 (project spec: 6)
                ("claude_api_key", c_str)]


class PreflightOptions(ctypes.Structure):
    _init_ = "ruas_preflight_options_init"
    _fields_ = [("version", ctypes.c_uint), ("max_parallel", ctypes.c_uint),
                ("audit", ctypes.POINTER(AuditSink)),
                # version 3
                ("fresh_host", ctypes.c_int), ("reuse_verdict", ctypes.c_int)]


class SpawnOptions(ctypes.Structure):
    _init_ = "ruas_spawn_options_init"
    _fields_ = [("version", ctypes.c_uint), ("env", c_strv), ("stdin_fd", ctypes.c_int),
                ("stdout_fd", ctypes.c_int), ("stderr_fd", ctypes.c_int),
                ("work_dir", c_str), ("set_env", c_strv), ("pty", ctypes.c_int),
                ("pty_relay", ctypes.c_int), ("audit", ctypes.POINTER(AuditSink)),
                # version 6
                ("credential_callback", CredentialCallback),
                ("credential_payload", ctypes.c_void_p)]


def _load():
    """libruas.so.0: RUAS_LIBRARY (a build tree's, for tests), the one installed with
    this package, else the dynamic linker's."""
    tried = []
    for path in (os.environ.get("RUAS_LIBRARY"), _INSTALLED, "libruas.so.0"):
        if not path or (os.sep in path and not os.path.exists(path)):
            continue
        try:
            return ctypes.CDLL(path, use_errno=True)
        except OSError as e:
            tried.append("%s: %s" % (path, e))
    raise ImportError("ruas: cannot load libruas.so.0 (%s)" % "; ".join(tried or ["not found"]))


lib = _load()

# (name, restype, argtypes). CDLL calls release the GIL: a blocking wait or a
# preflight lets the other threads run.
_PROTOS = [
    ("ruas_config_options_init", ctypes.c_int, [ctypes.POINTER(ConfigOptions), ctypes.c_uint]),
    ("ruas_config_globals_init", ctypes.c_int, [ctypes.POINTER(ConfigGlobals), ctypes.c_uint]),
    ("ruas_project_spec_init", ctypes.c_int, [ctypes.POINTER(ProjectSpec), ctypes.c_uint]),
    ("ruas_audit_sink_init", ctypes.c_int, [ctypes.POINTER(AuditSink), ctypes.c_uint]),
    ("ruas_preflight_options_init", ctypes.c_int,
     [ctypes.POINTER(PreflightOptions), ctypes.c_uint]),
    ("ruas_spawn_options_init", ctypes.c_int, [ctypes.POINTER(SpawnOptions), ctypes.c_uint]),
    ("ruas_error_code", ctypes.c_int, [P]),
    ("ruas_error_message", c_str, [P]),
    ("ruas_error_file", c_str, [P]),
    ("ruas_error_line", ctypes.c_int, [P]),
    ("ruas_error_errno", ctypes.c_int, [P]),
    ("ruas_error_stage", ctypes.c_int, [P]),
    ("ruas_config_audit_undelivered", ctypes.c_ulong, [P]),
    ("ruas_error_free", None, [P]),
    ("ruas_config_load", ctypes.c_int, [PP, c_str, ctypes.POINTER(ConfigOptions), PP]),
    ("ruas_config_new", ctypes.c_int,
     [PP, ctypes.POINTER(ConfigGlobals), ctypes.POINTER(ConfigOptions), PP]),
    ("ruas_config_add_project", ctypes.c_int, [P, ctypes.POINTER(ProjectSpec), PP]),
    ("ruas_config_free", None, [P]),
    ("ruas_config_path", c_str, [P]),
    ("ruas_config_project_count", ctypes.c_size_t, [P]),
    ("ruas_config_project_at", P, [P, ctypes.c_size_t]),
    ("ruas_config_project_find", P, [P, c_str]),
    ("ruas_project_name", c_str, [P]),
    ("ruas_project_work_dir", c_str, [P]),
    ("ruas_project_run_as_user", c_str, [P]),
    ("ruas_project_person", c_str, [P]),
    ("ruas_project_backend", c_str, [P]),
    ("ruas_project_terminate_grace", ctypes.c_uint, [P]),
    ("ruas_project_wall_time_max", ctypes.c_uint, [P]),
    ("ruas_project_open_files_max", ctypes.c_uint, [P]),
    ("ruas_project_file_size_max", ctypes.c_char_p, [P]),
    ("ruas_project_core_dumps", ctypes.c_int, [P]),
    ("ruas_project_require_command", ctypes.c_int, [P]),
    ("ruas_project_memory_max", ctypes.c_char_p, [P]),
    ("ruas_project_memory_swap_max", ctypes.c_char_p, [P]),
    ("ruas_project_tasks_max", ctypes.c_uint, [P]),
    ("ruas_project_cpu_max", ctypes.c_char_p, [P]),
    ("ruas_project_command", c_strv, [P]),
    ("ruas_project_env_allowlist", c_strv, [P]),
    ("ruas_preflight", ctypes.c_int, [PP, P, ctypes.POINTER(PreflightOptions), PP]),
    ("ruas_report_free", None, [P]),
    ("ruas_report_has_fatal", ctypes.c_int, [P]),
    ("ruas_report_project_count", ctypes.c_size_t, [P]),
    ("ruas_report_project_name", c_str, [P, ctypes.c_size_t]),
    ("ruas_report_item_count", ctypes.c_size_t, [P, ctypes.c_size_t]),
    ("ruas_report_item_severity", ctypes.c_int, [P, ctypes.c_size_t, ctypes.c_size_t]),
    ("ruas_report_item_check", c_str, [P, ctypes.c_size_t, ctypes.c_size_t]),
    ("ruas_report_item_text", c_str, [P, ctypes.c_size_t, ctypes.c_size_t]),
    ("ruas_report_host_count", ctypes.c_size_t, [P]),
    ("ruas_report_host_severity", ctypes.c_int, [P, ctypes.c_size_t]),
    ("ruas_report_host_check", c_str, [P, ctypes.c_size_t]),
    ("ruas_report_host_text", c_str, [P, ctypes.c_size_t]),
    ("ruas_report_item_user", c_str, [P, ctypes.c_size_t, ctypes.c_size_t]),
    ("ruas_report_item_path", c_str, [P, ctypes.c_size_t, ctypes.c_size_t]),
    ("ruas_report_item_fix", c_str, [P, ctypes.c_size_t, ctypes.c_size_t]),
    ("ruas_report_host_path", c_str, [P, ctypes.c_size_t]),
    ("ruas_report_host_fix", c_str, [P, ctypes.c_size_t]),
    ("ruas_report_unjudged_count", ctypes.c_size_t, [P]),
    ("ruas_report_unjudged_what", c_str, [P, ctypes.c_size_t]),
    ("ruas_report_unjudged_path", c_str, [P, ctypes.c_size_t]),
    ("ruas_spawn", ctypes.c_int,
     [PP, P, c_str, c_strv, ctypes.POINTER(SpawnOptions), PP]),
    ("ruas_child_pid", ctypes.c_int, [P]),
    ("ruas_child_agent_pid", ctypes.c_int, [P]),
    ("ruas_child_run_id", c_str, [P]),
    ("ruas_child_wait", ctypes.c_int, [P, ctypes.POINTER(ctypes.c_int), PP]),
    ("ruas_child_try_wait", ctypes.c_int, [P, ctypes.POINTER(ctypes.c_int), PP]),
    ("ruas_child_terminate", ctypes.c_int, [P, PP]),
    ("ruas_child_signal", ctypes.c_int, [P, ctypes.c_int, PP]),
    ("ruas_child_pidfd", ctypes.c_int, [P]),
    ("ruas_child_term_signal", ctypes.c_int, [P]),
    ("ruas_child_limit", ctypes.c_int, [P]),
    ("ruas_child_free", None, [P]),
]
for _name, _res, _args in _PROTOS:
    try:
        _f = getattr(lib, _name)
    except AttributeError:
        raise ImportError("ruas: the libruas.so.0 found has no %s: it is older than this "
                          "binding (install the ruas release this binding came with)"
                          % _name) from None
    _f.restype = _res
    _f.argtypes = _args
# Each struct's defaults, once: a library that refuses the versions this
# binding was written against is older than it, which is an import's error.
for _cls, _version in ((ConfigOptions, CONFIG_OPTIONS_VERSION),
                       (ConfigGlobals, CONFIG_GLOBALS_VERSION), (AuditSink, AUDIT_SINK_VERSION),
                       (ProjectSpec, PROJECT_SPEC_VERSION),
                       (PreflightOptions, PREFLIGHT_OPTIONS_VERSION),
                       (SpawnOptions, SPAWN_OPTIONS_VERSION)):
    _probe = _cls()
    if getattr(lib, _cls._init_)(ctypes.byref(_probe), _version) != 0:
        raise ImportError("ruas: the libruas.so.0 found does not know version %d of %s: it is "
                          "older than this binding" % (_version, _cls._init_[:-5]))


def text(b):
    """A C string the library returned, as str (bytes that are not UTF-8 kept as escapes)."""
    return None if b is None else b.decode("utf-8", "surrogateescape")


def options(cls, version, **fields):
    """A cls (a versioned struct) at the library's defaults for version, then fields
    (each one of its own: a name it does not have is a TypeError, as the
    constructor's would be)."""
    names = {f for f, _ in cls._fields_}
    for name in fields:
        if name not in names:
            raise TypeError("ruas: %s has no field %r" % (cls.__name__, name))
    s = cls()
    if getattr(lib, cls._init_)(ctypes.byref(s), version) != 0:
        from . import _errors  # here: _errors imports this module
        raise _errors.InvalidError("ruas: libruas does not know version %d of %s"
                                   % (version, cls._init_[:-5]), -4)
    for name, value in fields.items():
        setattr(s, name, value)
    return s


def strv(items):
    """A NULL-terminated char ** that lives as long as the returned object."""
    if items is None:
        return None
    enc = [encode(s) for s in items]
    arr = (ctypes.c_char_p * (len(enc) + 1))(*enc, None)
    return ctypes.cast(arr, c_strv)


def strv_list(v):
    out = []
    if not v:
        return out
    i = 0
    while v[i] is not None:
        out.append(text(v[i]))
        i += 1
    return out


def encode(s):
    """str, bytes or a path as the C string it becomes (TypeError for anything
    else, as subprocess); a NUL in it can never cross (ValueError)."""
    if s is None:
        return None
    if isinstance(s, (str, os.PathLike)):
        b = os.fsencode(s)
    elif isinstance(s, (bytes, bytearray)):
        b = bytes(s)
    else:
        raise TypeError("ruas: expected str, bytes or os.PathLike, not %s" % type(s).__name__)
    if b"\0" in b:
        raise ValueError("ruas: %r holds a NUL byte, which no C string can" % (s,))
    return b
