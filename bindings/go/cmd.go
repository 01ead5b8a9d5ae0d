// SPDX-License-Identifier: ISC

// cmd.go - Cmd: a project's agent to run, after exec.Cmd.

package ruas

/*
#include <stdlib.h>
#include <ruas.h>
*/
import "C"

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// PTYMode is the spawn option pty: whether the agent gets a
// pseudo-terminal of its own (only with run_as_user).
type PTYMode int

// The pty modes.
const (
	// PTYAuto (the default) gives one when the agent's stdin is a
	// terminal, relayed by the library; with pipes and files, none.
	PTYAuto PTYMode = iota
	// PTYNone never gives one.
	PTYNone
	// PTYAlways always gives one, relayed by the library to this
	// process's stdin, stdout and stderr: Stdin, Stdout and Stderr must
	// then be nil.
	PTYAlways
)

// Cmd is a project's agent being prepared or run. Its fields follow
// exec.Cmd's; set them before Start.
type Cmd struct {
	// Project is the project whose command runs.
	Project string
	// Args are appended to the project's command.
	Args []string

	// Env is the environment the agent's is taken from, as exec.Cmd's:
	// nil is this process's (os.Environ, copied at Start); non-nil is
	// exactly these "NAME=value" entries, the last of a NAME winning, so
	// that append(os.Environ(), "SESSION_TOKEN=x") works as it does for
	// exec.Cmd. With run_as_user only the project's env_allowlist
	// crosses, from either, and the rest is left out, as for the
	// process environment; in legacy mode all of it does.
	Env []string
	// SetEnv gives values for this spawn over Env's (a session token),
	// strictly: a NAME outside the project's env_allowlist is refused
	// (ErrInvalid, naming it), never dropped.
	SetEnv []string
	// Dir is where the agent starts: "" for the project's work_dir, or a
	// directory beneath it (relative to it, or absolute and spelled
	// beneath it); one that leaves it is refused (ErrEscape).
	Dir string

	// Stdin, Stdout and Stderr are as in exec.Cmd: nil is the null
	// device, an *os.File is passed to the agent as it is, anything else
	// is copied by a goroutine through a pipe, and Wait waits for it.
	// When Stdout and Stderr are the same writer, at most one goroutine
	// at a time calls Write.
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// PTY is the spawn option pty.
	PTY PTYMode

	// Credentials gives the run's credentials beyond the configured ones
	// (docs/credentials.md): when the agent runs ruas-credential NAME for
	// a name no configured source has, the library calls it, from the
	// child's credential thread, with the project and NAME. It returns the
	// value and true; false when it has no credential by that name (the
	// agent is told "unknown credential"); or an error (the agent is told
	// that the source failed, CredentialFailures keeps it). A panic, an
	// empty value, one with a NUL byte or one over the library's bound is
	// a failure too. It may run while other goroutines use the Cmd, and
	// is held until Wait (or the finalizer) frees the Process. nil: none.
	Credentials func(project, name string) (value string, ok bool, err error)

	// WaitDelay bounds the waiting after the context is done, or after
	// the agent has ended, as in Go 1.20's exec.Cmd: once it has passed
	// since the context was done the tree gets SIGKILL, and once it has
	// passed since either, the I/O pipes are closed and Wait returns
	// (ErrWaitDelay when nothing else went wrong). Zero: no bound
	// beyond the project's terminate_grace.
	WaitDelay time.Duration

	// Process is the started agent, after Start.
	Process *Process
	// ProcessState is how it ended, after Wait.
	ProcessState *ProcessState

	cfg         *Config
	ctx         context.Context
	credentials *credentialSource // Credentials', once started
	waited      bool              // Wait was called, even one whose Process.Wait failed

	childFiles      []*os.File // the agent's ends, closed once it has them
	closeAfterStart []io.Closer
	closeAfterWait  []io.Closer
	parentPipes     []io.Closer // what the goroutines use; closed to cut them off
	goroutines      []func() error
	errch           chan error
	waitDone        chan struct{}
	ctxResult       chan ctxResult
}

type ctxResult struct {
	err      error
	deadline time.Time // for the goroutines, from WaitDelay
}

// Command prepares project's command with args appended. Nothing is
// checked until Start.
func (cfg *Config) Command(project string, args ...string) *Cmd {
	return &Cmd{Project: project, Args: args, cfg: cfg}
}

// CommandContext is Command with a context: when ctx is done before the
// agent ends, its tree is terminated (SIGTERM, SIGKILL after the
// project's terminate_grace), and Wait returns an error.
func (cfg *Config) CommandContext(ctx context.Context, project string, args ...string) *Cmd {
	if ctx == nil {
		panic("ruas: nil Context")
	}
	c := cfg.Command(project, args...)
	c.ctx = ctx
	return c
}

// String is the project and the arguments, for messages.
func (c *Cmd) String() string {
	return strings.Join(append([]string{c.Project}, c.Args...), " ")
}

func closeAll(cs []io.Closer) {
	for _, x := range cs {
		x.Close()
	}
}

func (c *Cmd) closeFiles() {
	for _, f := range c.childFiles {
		f.Close()
	}
	c.childFiles = nil
	closeAll(c.closeAfterStart)
	c.closeAfterStart = nil
}

// stdin is the agent's stdin descriptor: the null device, the caller's
// file, or a pipe fed by a goroutine.
func (c *Cmd) stdin() (*os.File, error) {
	switch r := c.Stdin.(type) {
	case nil:
		return c.devNull(os.O_RDONLY)
	case *os.File:
		return r, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c.childFiles = append(c.childFiles, pr)
	c.parentPipes = append(c.parentPipes, pw)
	src := c.Stdin
	c.goroutines = append(c.goroutines, func() error {
		_, err := io.Copy(pw, src)
		if errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
			err = nil // the agent stopped reading, as exec ignores it
		}
		if err1 := pw.Close(); err == nil && !errors.Is(err1, os.ErrClosed) {
			err = err1
		}
		return err
	})
	return pr, nil
}

// writer is the agent's stdout or stderr descriptor.
func (c *Cmd) writer(w io.Writer) (*os.File, error) {
	switch f := w.(type) {
	case nil:
		return c.devNull(os.O_WRONLY)
	case *os.File:
		return f, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c.childFiles = append(c.childFiles, pw)
	c.parentPipes = append(c.parentPipes, pr)
	c.goroutines = append(c.goroutines, func() error {
		_, err := io.Copy(w, pr)
		pr.Close()
		if errors.Is(err, os.ErrClosed) {
			err = nil // cut off by WaitDelay, which Wait reports
		}
		return err
	})
	return pw, nil
}

func (c *Cmd) devNull(flag int) (*os.File, error) {
	f, err := os.OpenFile(os.DevNull, flag, 0)
	if err != nil {
		return nil, err
	}
	c.childFiles = append(c.childFiles, f)
	return f, nil
}

// interfaceEqual is ==, false for values that cannot be compared.
func interfaceEqual(a, b interface{}) (eq bool) {
	defer func() { recover() }()
	return a == b
}

// stdio is the three descriptors for the spawn options (-1 each for PTYAlways).
func (c *Cmd) stdio() ([3]C.int, error) {
	fds := [3]C.int{-1, -1, -1}
	if c.PTY == PTYAlways {
		if c.Stdin != nil || c.Stdout != nil || c.Stderr != nil {
			return fds, invalid("PTYAlways needs Stdin, Stdout and Stderr nil")
		}
		return fds, nil
	}
	in, err := c.stdin()
	if err != nil {
		return fds, err
	}
	out, err := c.writer(c.Stdout)
	if err != nil {
		return fds, err
	}
	errf := out
	if c.Stderr == nil || !interfaceEqual(c.Stderr, c.Stdout) {
		if errf, err = c.writer(c.Stderr); err != nil {
			return fds, err
		}
	}
	// Fd() also makes the descriptor blocking, as the agent expects.
	fds[0], fds[1], fds[2] = C.int(in.Fd()), C.int(out.Fd()), C.int(errf.Fd())
	return fds, nil
}

var ptyModes = map[PTYMode]C.int{
	PTYAuto: C.RUAS_PTY_AUTO, PTYNone: C.RUAS_PTY_NONE, PTYAlways: C.RUAS_PTY_ALWAYS,
}

// spawn is ruas_spawn with fds and the Cmd's fields; it returns the handle
// and the project's grace before its SIGKILL.
func (c *Cmd) spawn(fds [3]C.int) (*C.ruas_child, time.Duration, uintptr, uintptr, error) {
	var a arena
	defer a.free()
	pty, ok := ptyModes[c.PTY]
	if !ok {
		return nil, 0, 0, 0, invalid("unknown PTY mode %d", int(c.PTY))
	}
	var o C.ruas_spawn_options
	if err := optionsInit(C.ruas_spawn_options_init(&o, C.RUAS_SPAWN_OPTIONS_VERSION), "spawn"); err != nil {
		return nil, 0, 0, 0, err
	}
	if c.Env == nil {
		o.env = a.strv("os.Environ()", os.Environ())
	} else {
		// Exactly Env, as exec.Cmd: no value of this process's crosses.
		o.env = a.strv("Cmd.Env", dedupEnv(c.Env))
	}
	if c.SetEnv != nil {
		o.set_env = a.strv("Cmd.SetEnv", c.SetEnv)
	}
	o.stdin_fd, o.stdout_fd, o.stderr_fd = fds[0], fds[1], fds[2]
	o.work_dir = a.opt("Cmd.Dir", c.Dir)
	o.pty = pty
	o.pty_relay = C.RUAS_PTY_RELAY_LIBRARY
	project := a.str("Cmd.Project", c.Project)
	var args **C.char
	if len(c.Args) > 0 {
		args = a.strv("Cmd.Args", c.Args)
	}
	if a.err != nil {
		return nil, 0, 0, 0, a.err
	}
	c.cfg.mu.RLock()
	defer c.cfg.mu.RUnlock()
	if c.cfg.c == nil {
		return nil, 0, 0, 0, errClosed()
	}
	sink, err := c.cfg.auditSink()
	if err != nil {
		return nil, 0, 0, 0, err
	}
	// The run's Credentials function, held by its Process until the free.
	var creds uintptr
	if c.Credentials != nil {
		creds, c.credentials = registerCredentials(c.Credentials)
		credentialOptions(&o, creds)
	}
	// The run holds its OnAudit function until its handle is freed (audit.go).
	audit := acquireAuditor(c.cfg.auditKey)
	if sink != nil {
		o.audit = sink
		defer C.free(unsafe.Pointer(sink))
	}
	var h *C.ruas_child
	var cerr *C.ruas_error
	if err := takeError(C.ruas_spawn(&h, c.cfg.c, project, args, &o, &cerr), cerr); err != nil {
		releaseAuditor(audit)
		releaseCredentials(creds)
		return nil, 0, 0, 0, err
	}
	grace := time.Duration(0)
	if p := C.ruas_config_project_find(c.cfg.c, project); p != nil {
		grace = time.Duration(C.ruas_project_terminate_grace(p)) * time.Second
		if C.ruas_project_run_as_user(p) != nil {
			grace += 5 * time.Second // the helper enforces it; this is the margin for sudo
		}
	}
	return h, grace, audit, creds, nil
}

// dedupEnv keeps, of each name, its last entry, where that entry is: the
// last of a name wins, as in exec.Cmd.
func dedupEnv(env []string) []string {
	last := make(map[string]int, len(env))
	for i, kv := range env {
		name := kv
		if j := strings.IndexByte(kv, '='); j >= 0 {
			name = kv[:j]
		}
		last[name] = i
	}
	out := make([]string, 0, len(last))
	for i, kv := range env {
		name := kv
		if j := strings.IndexByte(kv, '='); j >= 0 {
			name = kv[:j]
		}
		if last[name] == i {
			out = append(out, kv)
		}
	}
	return out
}

// Start starts the agent; it does not wait for it to end.
func (c *Cmd) Start() error {
	if c.cfg == nil {
		return invalid("Cmd not made by Config.Command")
	}
	if c.Process != nil {
		return errors.New("ruas: already started")
	}
	if c.ctx != nil {
		if err := c.ctx.Err(); err != nil {
			c.closeFiles()
			closeAll(c.closeAfterWait)
			return err
		}
	}
	fds, err := c.stdio()
	var h *C.ruas_child
	var grace time.Duration
	var audit, creds uintptr
	if err == nil {
		h, grace, audit, creds, err = c.spawn(fds)
	}
	// The library has duplicated what the agent gets: close the ends here.
	c.closeFiles()
	if err != nil {
		closeAll(c.parentPipes)
		closeAll(c.closeAfterWait)
		c.parentPipes, c.closeAfterWait, c.goroutines = nil, nil, nil
		return err
	}
	c.Process = newProcess(h, audit, creds)
	c.errch = make(chan error, len(c.goroutines))
	for _, fn := range c.goroutines {
		go func(fn func() error) { c.errch <- fn() }(fn)
	}
	if c.ctx != nil {
		c.waitDone = make(chan struct{})
		c.ctxResult = make(chan ctxResult, 1)
		go c.watchCtx(grace)
	}
	return nil
}

// watchCtx ends the agent's tree when the context is done before it ends.
func (c *Cmd) watchCtx(grace time.Duration) {
	select {
	case <-c.waitDone:
		c.ctxResult <- ctxResult{}
		return
	case <-c.ctx.Done():
	}
	var res ctxResult
	if err := c.Process.Terminate(); err == nil {
		res.err = c.ctx.Err()
	} else if !errors.Is(err, os.ErrProcessDone) {
		res.err = err
	}
	kill := grace
	if c.WaitDelay > 0 && c.WaitDelay < kill {
		kill = c.WaitDelay
	}
	if c.WaitDelay > 0 {
		res.deadline = time.Now().Add(c.WaitDelay)
	}
	t := time.NewTimer(kill)
	defer t.Stop()
	select {
	case <-c.waitDone:
	case <-t.C:
		c.Process.Kill()
	}
	c.ctxResult <- res
}

// Wait waits for the agent to end and for the copying to and from it to
// finish, then closes the pipes. The error is nil, an *ExitError when the
// agent did not exit with 0, the context's error when it was ended
// because the context was done, ErrWaitDelay, or a copying error.
func (c *Cmd) Wait() error {
	if c.Process == nil {
		return errors.New("ruas: not started")
	}
	if c.ProcessState != nil || c.waited {
		return errors.New("ruas: Wait was already called")
	}
	c.waited = true
	state, err := c.Process.Wait()
	if err == nil && !state.Success() {
		err = &ExitError{ProcessState: state}
	}
	c.ProcessState = state
	var deadline time.Time
	if c.waitDone != nil {
		close(c.waitDone)
		res := <-c.ctxResult
		if err == nil && res.err != nil {
			err = res.err
		}
		deadline = res.deadline
	}
	if gerr := c.awaitGoroutines(deadline); err == nil {
		err = gerr
	}
	closeAll(c.parentPipes)
	closeAll(c.closeAfterWait)
	return err
}

func (c *Cmd) awaitGoroutines(deadline time.Time) error {
	if deadline.IsZero() && c.WaitDelay > 0 {
		deadline = time.Now().Add(c.WaitDelay)
	}
	var timeout <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		timeout = t.C
	}
	var first error
	for n := len(c.goroutines); n > 0; n-- {
		select {
		case err := <-c.errch:
			if err != nil && first == nil {
				first = err
			}
		case <-timeout:
			// Cut the copying off, let it finish, and say why: any other
			// error now could come from the closing (as exec does).
			closeAll(c.parentPipes)
			for ; n > 0; n-- {
				<-c.errch
			}
			return ErrWaitDelay
		}
	}
	return first
}

// Run starts the agent and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return err
	}
	return c.Wait()
}
