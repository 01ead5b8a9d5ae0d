// SPDX-License-Identifier: ISC

// process.go - Process (a started agent: a ruas_child) and ProcessState
// (how it ended), after os.Process and os.ProcessState. Waiting parks the
// goroutine in the runtime's netpoller on the child's pidfd: no OS thread
// is held per child.

package ruas

/*
#include <ruas.h>
*/
import "C"

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"sync"
	"syscall"
)

// Process is a started agent: a ruas_child. Signal, Kill and Terminate may
// be called from any goroutine, also while another one waits. The handle
// is freed once Wait has reaped the child; a Process dropped without Wait
// is freed by a finalizer, which ends the agent's tree if it still runs.
type Process struct {
	// Pid is sudo's, ruas-session's, or in legacy mode the command's: a
	// signal sent to it with syscall.Kill reaches the agent as Signal's
	// does (SIGTERM ends the tree).
	Pid int
	// AgentPid is the agent's own pid as this host sees it, for logs and
	// audit; 0 when it cannot be told. Signal the agent through Signal.
	AgentPid int
	// RunID is the run id of the spawn's audit records, which the agent
	// has as RUAS_RUN_ID (docs/audit.md): 32 lower-case hex digits.
	RunID string

	waitMu sync.Mutex   // one Wait at a time
	mu     sync.RWMutex // h against its free
	h      *C.ruas_child
	state  *ProcessState
	audit  uintptr // the OnAudit function its records go to, held until free (audit.go)
	creds  uintptr // its Cmd's Credentials function, held until free (credentials.go)
}

func newProcess(h *C.ruas_child, audit, creds uintptr) *Process {
	p := &Process{Pid: int(C.ruas_child_pid(h)), AgentPid: int(C.ruas_child_agent_pid(h)),
		RunID: C.GoString(C.ruas_child_run_id(h)), h: h, audit: audit, creds: creds}
	// Not in the finalizer's own goroutine: a free may take up to 2 s.
	runtime.SetFinalizer(p, func(p *Process) { go p.free() })
	return p
}

func (p *Process) free() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.h != nil {
		C.ruas_child_free(p.h)
		p.h = nil
		releaseAuditor(p.audit) // its end record, if any, is made
		p.audit = 0
		releaseCredentials(p.creds) // the library calls it no more
		p.creds = 0
	}
}

// Signal sends sig (a syscall.Signal) through the library: behind sudo
// SIGTERM ends the agent's whole tree with the project's grace, SIGKILL
// ends it at once, any other signal goes to the agent's process group.
// os.ErrProcessDone once the agent has been reaped.
func (p *Process) Signal(sig os.Signal) error {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return invalid("unsupported signal type %T", sig)
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.h == nil || p.state != nil {
		return os.ErrProcessDone
	}
	var cerr *C.ruas_error
	return takeError(C.ruas_child_signal(p.h, C.int(s), &cerr), cerr)
}

// Kill ends the agent's whole tree at once (SIGKILL).
func (p *Process) Kill() error { return p.Signal(syscall.SIGKILL) }

// Terminate ends the agent's whole tree: SIGTERM now, SIGKILL to what is
// left after the project's terminate_grace (ruas_child_terminate).
func (p *Process) Terminate() error {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.h == nil || p.state != nil {
		return os.ErrProcessDone
	}
	var cerr *C.ruas_error
	return takeError(C.ruas_child_terminate(p.h, &cerr), cerr)
}

// Wait waits for the agent to end, reaps it and frees the handle. Called
// again, it returns the same state.
func (p *Process) Wait() (*ProcessState, error) {
	p.waitMu.Lock()
	defer p.waitMu.Unlock()
	p.mu.RLock()
	h, st := p.h, p.state
	p.mu.RUnlock()
	if st != nil {
		return st, nil
	}
	if h == nil {
		return nil, invalid("the process was released")
	}
	code, err := waitChild(h)
	if err != nil {
		return nil, err
	}
	st = &ProcessState{pid: p.Pid, code: code, sig: int(C.ruas_child_term_signal(h)),
		limit: limitOf(C.ruas_child_limit(h))}
	p.mu.Lock()
	p.state = st
	p.mu.Unlock()
	p.free()
	runtime.SetFinalizer(p, nil)
	return st, nil
}

// waitChild waits on the pidfd in the netpoller, or, where the kernel has
// none, in a blocking ruas_child_wait.
func waitChild(h *C.ruas_child) (int, error) {
	if code, ok, err := pollChild(h); ok {
		return code, err
	}
	var code C.int
	var cerr *C.ruas_error
	if err := takeError(C.ruas_child_wait(h, &code, &cerr), cerr); err != nil {
		return 0, err
	}
	return int(code), nil
}

// pollChild: ok false when the pidfd cannot be polled here. The handle
// owns its pidfd, so the poller gets a duplicate of its own.
func pollChild(h *C.ruas_child) (code int, ok bool, err error) {
	pidfd := int(C.ruas_child_pidfd(h))
	if pidfd < 0 {
		return 0, false, nil
	}
	fd, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(pidfd), syscall.F_DUPFD_CLOEXEC, 0)
	if e != 0 {
		return 0, false, nil
	}
	if syscall.SetNonblock(int(fd), true) != nil {
		syscall.Close(int(fd))
		return 0, false, nil
	}
	f := os.NewFile(fd, "pidfd")
	defer f.Close()
	rc, serr := f.SyscallConn()
	if serr != nil {
		return 0, false, nil
	}
	var werr error
	perr := rc.Read(func(uintptr) bool {
		var c C.int
		var cerr *C.ruas_error
		r := C.ruas_child_try_wait(h, &c, &cerr)
		if r == 1 {
			return false // still running: park until the pidfd is readable
		}
		werr = takeError(r, cerr)
		code = int(c)
		return true
	})
	if perr != nil {
		return 0, false, nil // not pollable: the caller waits blocking
	}
	return code, true, werr
}

// Limit is the limit of the project's that ended a run
// (ruas_child_limit), a string so that it prints and logs as it is:
// LimitNone (""), "memory", "tasks" or "time".
type Limit string

// The limits ProcessState.Limit reports.
const (
	LimitNone   Limit = ""
	LimitMemory Limit = "memory" // memory_max: the run's cgroup killed a process of it
	LimitTasks  Limit = "tasks"  // tasks_max: a fork failed at pids.max (the run went on)
	LimitTime   Limit = "time"   // wall_time_max: the library terminated it
)

func limitOf(l C.ruas_limit) Limit {
	switch l {
	case C.RUAS_LIMIT_NONE:
		return LimitNone
	case C.RUAS_LIMIT_MEMORY:
		return LimitMemory
	case C.RUAS_LIMIT_TASKS:
		return LimitTasks
	case C.RUAS_LIMIT_TIME:
		return LimitTime
	}
	// One this binding does not know yet (a newer libruas): not taken for none.
	return Limit("limit " + strconv.Itoa(int(l)))
}

// ProcessState is how an agent ended, as os.ProcessState says it.
type ProcessState struct {
	pid   int
	code  int   // the wait's status: the exit code, or 128+N for signal N
	sig   int   // the signal that ended the agent, 0 when it exited
	limit Limit // the project's limit that ended it, if one did
}

// Pid is the pid of the process that ended.
func (s *ProcessState) Pid() int { return s.pid }

// Exited reports whether the agent exited (rather than being killed by a signal).
func (s *ProcessState) Exited() bool { return s.sig == 0 }

// ExitCode is the exit code, or -1 when a signal ended the agent.
func (s *ProcessState) ExitCode() int {
	if s == nil || s.sig != 0 {
		return -1
	}
	return s.code
}

// Success reports whether the agent exited with status 0.
func (s *ProcessState) Success() bool { return s.sig == 0 && s.code == 0 }

// Signal is the signal that ended the agent, 0 when it exited.
func (s *ProcessState) Signal() syscall.Signal { return syscall.Signal(s.sig) }

// Limit is the limit of the project's that ended the agent (LimitTime:
// wall_time_max, whose SIGTERM, or SIGKILL after the grace, Signal
// reports), LimitNone when none did.
func (s *ProcessState) Limit() Limit {
	if s == nil {
		return LimitNone
	}
	return s.limit
}

// Sys is the end as a syscall.WaitStatus.
func (s *ProcessState) Sys() interface{} {
	if s.sig != 0 {
		return syscall.WaitStatus(s.sig & 0x7f)
	}
	return syscall.WaitStatus((s.code & 0xff) << 8)
}

func (s *ProcessState) String() string {
	if s == nil {
		return "<nil>"
	}
	if s.sig != 0 {
		return "signal: " + syscall.Signal(s.sig).String()
	}
	return "exit status " + strconv.Itoa(s.code)
}

// ExitError is the error of a Wait whose agent did not exit with 0, as
// exec.ExitError.
type ExitError struct {
	*ProcessState
	// Stderr holds (part of) the agent's standard error when Output
	// collected it (Cmd.Stderr was nil).
	Stderr []byte
}

func (e *ExitError) Error() string { return e.ProcessState.String() }

// ErrWaitDelay is what Wait returns when the agent ended but its I/O was
// cut off after Cmd.WaitDelay, as exec.ErrWaitDelay in Go 1.20.
var ErrWaitDelay = errors.New("ruas: WaitDelay expired before I/O complete")
