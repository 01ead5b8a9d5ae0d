// SPDX-License-Identifier: ISC

// config.go - Config: a configuration loaded from ruas.conf or built in
// code (NewConfig, AddProject), and what it says of its projects.

package ruas

/*
#include <stdlib.h>
#include <ruas.h>
*/
import "C"

import (
	"math"
	"runtime"
	"sync"
	"time"
)

// Config is a configuration: a ruas_config. It is safe for concurrent use
// by several goroutines: AddProject and Close take it exclusively (the C
// API requires that no other call on it runs meanwhile), everything else
// shares it. Close it when done; a finalizer frees it otherwise.
type Config struct {
	mu       sync.RWMutex
	c        *C.ruas_config
	auditKey uintptr // OnAudit's, 0: none (audit.go)
}

// NoGrace as a TerminateGrace asks for 0 s: SIGKILL right after SIGTERM.
// (The zero Duration leaves the key absent, so that its default applies.)
const NoGrace time.Duration = -1

// NoWallTime as a WallTimeMax asks for none (wall_time_max 0): a
// project's, over a global one. (The zero Duration leaves the key absent.)
const NoWallTime time.Duration = -1

// Globals are the top-level keys of ruas.conf(5) for NewConfigGlobals. A
// zero value (""; nil; 0) leaves its key absent, so that its default
// applies; an empty non-nil list is the file's [].
type Globals struct {
	Name              string // names the configuration in messages; "" is "(ruas_config_new)"
	EnvAllowlist      []string
	Sudo              string
	Helper            string
	SessionHelper     string
	ScanPrune         []string
	ScanTimeLimit     time.Duration // whole seconds
	Backend           string        // "sudo", "pam" or "auto"
	PAMService        string
	TerminateGrace    time.Duration // whole seconds, or NoGrace
	TargetSudoAllowed []string
	Lifetime          string // "pidns", "subreaper" or "auto"
	// The audit keys (docs/audit.md): AuditFacility "authpriv", "auth",
	// "daemon", "user", "local0".."local7"; AuditLog an absolute path for
	// JSON lines; AuditArgv "truncated", "full" or "none"; AuditArgvMax the
	// bytes kept of each argument when truncated (0: the default).
	AuditFacility string
	AuditLog      string
	AuditArgv     string
	AuditArgvMax  int
	// The limits of every project's runs, as ProjectSpec's (a project's
	// own win).
	OpenFilesMax int
	FileSizeMax  string
	CoreDumps    *bool
	WallTimeMax  time.Duration // whole seconds, or NoWallTime
	// The cgroup limits of every project's runs, as ProjectSpec's; and
	// CgroupParent, the cgroup v2 directory (an absolute path beneath the
	// mount, which the supervisor can write) that each run's own cgroup is
	// made in ("": ruas.conf(5)'s default).
	MemoryMax     string
	MemorySwapMax string
	TasksMax      int
	CPUMax        string
	CgroupParent  string
	// RequireCommand: every project's default, as ProjectSpec's.
	RequireCommand *bool
	// Credentials: every project's (ruas.conf(5) credentials; Credential).
	Credentials []Credential
}

// ProjectSpec is one project for AddProject: the project keys of
// ruas.conf(5). Name, WorkDir (absolute) and Command (non-empty) are
// required. A zero value of the others leaves the key absent: in
// particular RunAsUser "" is legacy mode, in which the supervisor runs the
// command as itself. Every string goes to the library exactly as given
// (a NUL byte, which C cannot carry, is refused with ErrInvalid), and is
// judged by the code that judges the same key in a file.
type ProjectSpec struct {
	Name              string
	WorkDir           string
	Command           []string
	RunAsUser         string
	EnvAllowlist      []string // as Project reports it: the effective list
	Person            string
	TerminateGrace    time.Duration // whole seconds, or NoGrace
	DenySettingsArgs  []string
	ScanPrune         []string
	TargetSudoAllowed []string
	Backend           string // as Project reports it: "sudo", "pam" or "none"
	PAMService        string
	Lifetime          string
	// The limits of its runs (ruas.conf(5) open_files_max, file_size_max,
	// core_dumps, wall_time_max); zero: the global one. OpenFilesMax is
	// RLIMIT_NOFILE, 16 to 1048576. FileSizeMax is RLIMIT_FSIZE as the file
	// writes it, a string: bytes ("67108864", strconv.FormatInt of a
	// number) or a number with K, M, G or T ("64M", binary), which the
	// library judges. CoreDumps is a pointer so that absent (nil) is told
	// from false (none: RLIMIT_CORE 0, also the default). WallTimeMax is
	// whole seconds after which the library terminates the run (SIGTERM,
	// SIGKILL after TerminateGrace; ProcessState.Limit is LimitTime).
	OpenFilesMax int
	FileSizeMax  string
	CoreDumps    *bool
	WallTimeMax  time.Duration // whole seconds, or NoWallTime
	// Its runs' cgroup limits (ruas.conf(5) memory_max, memory_swap_max,
	// tasks_max, cpu_max), in a cgroup v2 of each run's own; zero: the
	// global one. MemoryMax and MemorySwapMax are bytes as FileSizeMax is
	// ("64M"); TasksMax is pids.max, 8 to 4194304; CPUMax is CPUs in
	// decimal ("0.5"). ProcessState.Limit is LimitMemory when the kernel
	// killed a process of the run at MemoryMax, LimitTasks when a fork
	// failed at TasksMax.
	MemoryMax     string
	MemorySwapMax string
	TasksMax      int
	CPUMax        string
	// RequireCommand (ruas.conf(5) require_command): true makes a command
	// that the target's login PATH does not find a fatal finding of
	// Preflight, not a warning; nil: the global one (false by default).
	RequireCommand *bool
	// Credentials: its own (Credential), each replacing a global one of
	// the same name; they need RunAsUser.
	Credentials []Credential
}

// seconds maps a Duration to a key of whole seconds: 0 is absent, NoGrace
// and NoWallTime (both -1) are 0.
func seconds(key string, d time.Duration) (C.int, error) {
	switch {
	case d == 0:
		return C.RUAS_UNSET, nil
	case d == NoGrace:
		return 0, nil
	case d < 0 || d%time.Second != 0:
		return 0, invalid("%s must be a whole number of seconds, not %v", key, d)
	case d/time.Second > 1<<30:
		return 1 << 30, nil // the library's range check names the key
	}
	return C.int(d / time.Second), nil
}

// count maps an int key to C's: 0 is absent. A negative one (-1 would be
// RUAS_UNSET, absent) or one beyond C's int (it would wrap into a value
// the library takes) goes as a bound the library refuses, naming the key.
func count(n int) C.int {
	switch {
	case n == 0:
		return C.RUAS_UNSET
	case n < 0:
		return C.int(math.MinInt32)
	case n > math.MaxInt32:
		return C.int(math.MaxInt32)
	}
	return C.int(n)
}

// flag maps a *bool key to C's: nil is absent.
func flag(b *bool) C.int {
	switch {
	case b == nil:
		return C.RUAS_UNSET
	case *b:
		return 1
	}
	return 0
}

func newConfig(c *C.ruas_config) *Config {
	cfg := &Config{c: c}
	runtime.SetFinalizer(cfg, (*Config).Close)
	return cfg
}

// LoadConfig loads and validates a configuration file, as ruas does: the
// file must be owned by root or this process's user and writable by nobody
// else. A refusal is an *Error with Code ErrConfig naming File and Line.
func LoadConfig(path string) (*Config, error) {
	var a arena
	defer a.free()
	p := a.str("configuration path", path)
	if a.err != nil {
		return nil, a.err
	}
	var c *C.ruas_config
	var cerr *C.ruas_error
	if err := takeError(C.ruas_config_load(&c, p, nil, &cerr), cerr); err != nil {
		return nil, err
	}
	return newConfig(c), nil
}

// NewConfig is a configuration without projects, with every global key at
// its default; add projects with AddProject.
func NewConfig() (*Config, error) { return NewConfigGlobals(Globals{}) }

// NewConfigGlobals is NewConfig with the top-level keys of g.
func NewConfigGlobals(g Globals) (*Config, error) {
	var a arena
	defer a.free()
	var cg C.ruas_config_globals
	if err := optionsInit(C.ruas_config_globals_init(&cg, C.RUAS_CONFIG_GLOBALS_VERSION), "config globals"); err != nil {
		return nil, err
	}
	cg.name = a.opt("Globals.Name", g.Name)
	cg.env_allowlist = a.strv("Globals.EnvAllowlist", g.EnvAllowlist)
	cg.sudo = a.opt("Globals.Sudo", g.Sudo)
	cg.helper = a.opt("Globals.Helper", g.Helper)
	cg.session_helper = a.opt("Globals.SessionHelper", g.SessionHelper)
	cg.scan_prune = a.strv("Globals.ScanPrune", g.ScanPrune)
	cg.backend = a.opt("Globals.Backend", g.Backend)
	cg.pam_service = a.opt("Globals.PAMService", g.PAMService)
	cg.target_sudo_allowed = a.strv("Globals.TargetSudoAllowed", g.TargetSudoAllowed)
	cg.lifetime = a.opt("Globals.Lifetime", g.Lifetime)
	cg.audit_facility = a.opt("Globals.AuditFacility", g.AuditFacility)
	cg.audit_log = a.opt("Globals.AuditLog", g.AuditLog)
	cg.audit_argv = a.opt("Globals.AuditArgv", g.AuditArgv)
	// Through count(): a negative or too big one is refused, never wrapped.
	cg.audit_argv_max = count(g.AuditArgvMax)
	var err error
	if cg.scan_time_limit, err = seconds("scan_time_limit", g.ScanTimeLimit); err != nil {
		return nil, err
	}
	if cg.terminate_grace, err = seconds("terminate_grace", g.TerminateGrace); err != nil {
		return nil, err
	}
	cg.open_files_max = count(g.OpenFilesMax)
	cg.file_size_max = a.opt("Globals.FileSizeMax", g.FileSizeMax)
	cg.core_dumps = flag(g.CoreDumps)
	cg.require_command = flag(g.RequireCommand)
	if cg.wall_time_max, err = seconds("wall_time_max", g.WallTimeMax); err != nil {
		return nil, err
	}
	cg.memory_max = a.opt("Globals.MemoryMax", g.MemoryMax)
	cg.memory_swap_max = a.opt("Globals.MemorySwapMax", g.MemorySwapMax)
	cg.tasks_max = count(g.TasksMax)
	cg.cpu_max = a.opt("Globals.CPUMax", g.CPUMax)
	cg.cgroup_parent = a.opt("Globals.CgroupParent", g.CgroupParent)
	cg.credentials, cg.credential_count = a.credentials("Globals.Credentials", g.Credentials)
	if a.err != nil {
		return nil, a.err
	}
	var c *C.ruas_config
	var cerr *C.ruas_error
	if err := takeError(C.ruas_config_new(&c, &cg, nil, &cerr), cerr); err != nil {
		return nil, err
	}
	return newConfig(c), nil
}

// AddProject validates p and adds it at the end of the configuration; on
// any refusal (an *Error, ErrConfig or ErrInvalid, naming what was wrong)
// the configuration is unchanged.
func (cfg *Config) AddProject(p ProjectSpec) error {
	var a arena
	defer a.free()
	var cs C.ruas_project_spec
	if err := optionsInit(C.ruas_project_spec_init(&cs, C.RUAS_PROJECT_SPEC_VERSION), "project spec"); err != nil {
		return err
	}
	cs.name = a.str("ProjectSpec.Name", p.Name)
	cs.work_dir = a.str("ProjectSpec.WorkDir", p.WorkDir)
	cs.command = a.strv("ProjectSpec.Command", p.Command)
	cs.run_as_user = a.opt("ProjectSpec.RunAsUser", p.RunAsUser)
	cs.env_allowlist = a.strv("ProjectSpec.EnvAllowlist", p.EnvAllowlist)
	cs.person = a.opt("ProjectSpec.Person", p.Person)
	cs.deny_settings_args = a.strv("ProjectSpec.DenySettingsArgs", p.DenySettingsArgs)
	cs.scan_prune = a.strv("ProjectSpec.ScanPrune", p.ScanPrune)
	cs.target_sudo_allowed = a.strv("ProjectSpec.TargetSudoAllowed", p.TargetSudoAllowed)
	cs.backend = a.opt("ProjectSpec.Backend", p.Backend)
	cs.pam_service = a.opt("ProjectSpec.PAMService", p.PAMService)
	cs.lifetime = a.opt("ProjectSpec.Lifetime", p.Lifetime)
	var err error
	if cs.terminate_grace, err = seconds("terminate_grace", p.TerminateGrace); err != nil {
		return err
	}
	cs.open_files_max = count(p.OpenFilesMax)
	cs.file_size_max = a.opt("ProjectSpec.FileSizeMax", p.FileSizeMax)
	cs.core_dumps = flag(p.CoreDumps)
	cs.require_command = flag(p.RequireCommand)
	if cs.wall_time_max, err = seconds("wall_time_max", p.WallTimeMax); err != nil {
		return err
	}
	cs.memory_max = a.opt("ProjectSpec.MemoryMax", p.MemoryMax)
	cs.memory_swap_max = a.opt("ProjectSpec.MemorySwapMax", p.MemorySwapMax)
	cs.tasks_max = count(p.TasksMax)
	cs.cpu_max = a.opt("ProjectSpec.CPUMax", p.CPUMax)
	cs.credentials, cs.credential_count = a.credentials("ProjectSpec.Credentials", p.Credentials)
	if a.err != nil {
		return a.err
	}
	cfg.mu.Lock()
	defer cfg.mu.Unlock()
	if cfg.c == nil {
		return errClosed()
	}
	var cerr *C.ruas_error
	return takeError(C.ruas_config_add_project(cfg.c, &cs, &cerr), cerr)
}

func errClosed() error { return invalid("the configuration is closed") }

// Close frees the configuration. Commands already started are not
// affected; Command and Preflight fail afterwards.
func (cfg *Config) Close() error {
	cfg.mu.Lock()
	defer cfg.mu.Unlock()
	if cfg.c != nil {
		C.ruas_config_free(cfg.c)
		cfg.c = nil
		runtime.SetFinalizer(cfg, nil)
	}
	releaseAuditor(cfg.auditKey)
	cfg.auditKey = 0
	return nil
}

// Path is the configuration's file, or its Globals.Name when built in code.
func (cfg *Config) Path() string {
	cfg.mu.RLock()
	defer cfg.mu.RUnlock()
	if cfg.c == nil {
		return ""
	}
	return goString(C.ruas_config_path(cfg.c))
}

// Projects are the names of the projects, in configuration order.
func (cfg *Config) Projects() []string {
	cfg.mu.RLock()
	defer cfg.mu.RUnlock()
	if cfg.c == nil {
		return nil
	}
	n := int(C.ruas_config_project_count(cfg.c))
	names := make([]string, 0, n)
	for i := 0; i < n; i++ {
		names = append(names, goString(C.ruas_project_name(C.ruas_config_project_at(cfg.c, C.size_t(i)))))
	}
	return names
}

// Project is what the library holds of project name, read from it now:
// the effective EnvAllowlist and TargetSudoAllowed (global plus the
// project's), TerminateGrace, WallTimeMax (NoWallTime: none),
// OpenFilesMax (0: as the run gets it) and the cgroup limits (zero: none;
// MemoryMax and MemorySwapMax in bytes) in force, and Backend resolved for
// this process ("none" in legacy mode). FileSizeMax and CoreDumps, which
// the library does not tell, are left zero. false when there is no such
// project.
func (cfg *Config) Project(name string) (ProjectSpec, bool) {
	var a arena
	defer a.free()
	n := a.str("project name", name)
	cfg.mu.RLock()
	defer cfg.mu.RUnlock()
	if a.err != nil || cfg.c == nil {
		return ProjectSpec{}, false
	}
	p := C.ruas_config_project_find(cfg.c, n)
	if p == nil {
		return ProjectSpec{}, false
	}
	grace := time.Duration(C.ruas_project_terminate_grace(p)) * time.Second
	if grace == 0 {
		grace = NoGrace
	}
	// As grace: the value means what it would in a ProjectSpec.
	wall := time.Duration(C.ruas_project_wall_time_max(p)) * time.Second
	if wall == 0 {
		wall = NoWallTime
	}
	// As a ProjectSpec says it: "" for none, the bytes in decimal.
	size := goString(C.ruas_project_file_size_max(p))
	dumps := C.ruas_project_core_dumps(p) != 0
	required := C.ruas_project_require_command(p) != 0
	// "0" (no swap) reads back as absent, as MemoryMax's none does.
	swap := goString(C.ruas_project_memory_swap_max(p))
	if swap == "0" {
		swap = ""
	}
	return ProjectSpec{
		Name:              goString(C.ruas_project_name(p)),
		WorkDir:           goString(C.ruas_project_work_dir(p)),
		Command:           goStrings((**C.char)(C.ruas_project_command(p))),
		RunAsUser:         goString(C.ruas_project_run_as_user(p)),
		EnvAllowlist:      goStrings((**C.char)(C.ruas_project_env_allowlist(p))),
		Person:            goString(C.ruas_project_person(p)),
		TerminateGrace:    grace,
		TargetSudoAllowed: goStrings((**C.char)(C.ruas_project_target_sudo_allowed(p))),
		Backend:           goString(C.ruas_project_backend(p)),
		OpenFilesMax:      int(C.ruas_project_open_files_max(p)),
		FileSizeMax:       size,
		CoreDumps:         &dumps,
		WallTimeMax:       wall,
		MemoryMax:         goString(C.ruas_project_memory_max(p)),
		MemorySwapMax:     swap,
		TasksMax:          int(C.ruas_project_tasks_max(p)),
		CPUMax:            goString(C.ruas_project_cpu_max(p)),
		RequireCommand:    &required,
	}, true
}
