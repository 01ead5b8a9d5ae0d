// SPDX-License-Identifier: ISC

// errors.go - the library's errors as Go errors: *Error, with a Code that
// errors.Is compares, and the errno of a failed system call behind Unwrap.

package ruas

/*
#include <stdlib.h>
#include <ruas.h>
*/
import "C"

import (
	"fmt"
	"strings"
	"syscall"
	"unsafe"
)

// Code is the kind of an *Error, the library's ruas_code. The codes are
// errors themselves, so that errors.Is(err, ruas.ErrConfig) tells what
// kind of refusal err is.
type Code int

// The codes of ruas.h.
const (
	ErrConfig   Code = C.RUAS_ERR_CONFIG   // configuration refused: syntax, keys, values
	ErrNotFound Code = C.RUAS_ERR_NOTFOUND // no such project
	ErrSystem   Code = C.RUAS_ERR_SYSTEM   // a system call failed: see Errno
	ErrInvalid  Code = C.RUAS_ERR_INVALID  // invalid argument from the caller
	ErrNoMem    Code = C.RUAS_ERR_NOMEM    // out of memory
	ErrTooLong  Code = C.RUAS_ERR_TOOLONG  // arguments too long for the agent's exec
	ErrEscape   Code = C.RUAS_ERR_ESCAPE   // a path leaves the directory it must stay in
	ErrStart    Code = C.RUAS_ERR_START    // the agent did not start: see Stage
)

// The stages of an ErrStart (ruas_stage), as Error.Stage names them.
var stageNames = map[C.ruas_stage]string{
	C.RUAS_STAGE_SUDO:     "sudo",     // sudo or PAM refused the switch to the target
	C.RUAS_STAGE_WORK_DIR: "work_dir", // the working directory could not be entered
	C.RUAS_STAGE_EXEC:     "exec",     // the agent's exec failed
	C.RUAS_STAGE_LOGIN:    "login",    // the login shell or its login files never ran it
	C.RUAS_STAGE_HELPER:   "helper",   // ruas's own helper could not set up the run
}

var codeNames = map[Code]string{
	ErrConfig:   "configuration refused",
	ErrNotFound: "no such project",
	ErrSystem:   "system call failed",
	ErrInvalid:  "invalid argument",
	ErrNoMem:    "out of memory",
	ErrTooLong:  "arguments too long",
	ErrEscape:   "path escapes its directory",
	ErrStart:    "the agent did not start",
}

func (c Code) Error() string {
	if s, ok := codeNames[c]; ok {
		return "ruas: " + s
	}
	return fmt.Sprintf("ruas: error code %d", int(c))
}

// Error is an error of the library (a ruas_error), or one of this package
// that refuses what the library could not be given (a string with a NUL
// byte). Message is the library's one line, which names the file, line,
// project and fix where they are known.
type Error struct {
	Code Code
	// The file it is about, or "": the configuration file; for ErrStart,
	// the command that could not be run (Stage "exec") or the directory
	// (Stage "work_dir").
	File string
	Line int // the line in File, or 0
	// The errno of the failure: always for ErrSystem; for ErrStart the
	// exec's or the work_dir's (ENOENT, EACCES, E2BIG...), 0 for a
	// refusal that has none (sudo's); for the others when a system call's
	// failure is why.
	Errno syscall.Errno
	// For ErrStart, where it failed: "sudo", "work_dir", "exec", "login"
	// or "helper"; else "".
	Stage   string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Is reports whether target is e's Code: errors.Is(err, ruas.ErrConfig).
func (e *Error) Is(target error) bool {
	c, ok := target.(Code)
	return ok && c == e.Code
}

// Unwrap gives the errno, so that errors.Is(err, fs.ErrNotExist) works
// for a command not found, as for exec.Cmd's; nil when there is none.
func (e *Error) Unwrap() error {
	if e.Errno != 0 {
		return e.Errno
	}
	return nil
}

// takeError turns a failed call's return code and ruas_error into an
// *Error and frees the ruas_error; nil when rc is not negative.
func takeError(rc C.int, cerr *C.ruas_error) error {
	if rc >= 0 {
		if cerr != nil {
			C.ruas_error_free(cerr)
		}
		return nil
	}
	if cerr == nil {
		return &Error{Code: Code(rc), Message: Code(rc).Error()}
	}
	defer C.ruas_error_free(cerr)
	e := &Error{
		Code:    Code(C.ruas_error_code(cerr)),
		Line:    int(C.ruas_error_line(cerr)),
		Errno:   syscall.Errno(C.ruas_error_errno(cerr)),
		Stage:   stageNames[C.ruas_error_stage(cerr)],
		Message: C.GoString(C.ruas_error_message(cerr)),
	}
	if f := C.ruas_error_file(cerr); f != nil {
		e.File = C.GoString(f)
	}
	return e
}

// optionsInit is the result of an options struct's ruas_<struct>_init(),
// which fails only when the installed library is older than the ruas.h
// this package was built against.
func optionsInit(rc C.int, what string) error {
	if rc != 0 {
		return invalid("the installed libruas does not know the version of its %s options that this package was built with (rebuild against its ruas.h)", what)
	}
	return nil
}

func invalid(format string, args ...interface{}) *Error {
	return &Error{Code: ErrInvalid, Message: "ruas: " + fmt.Sprintf(format, args...)}
}

// arena holds the C copies of the strings of one call, freed together
// after it: the library copies all it keeps, and cgo lets no Go pointer
// into C memory. The first string that C cannot carry (a NUL byte) is
// remembered in err, naming what it was.
type arena struct {
	ptrs []*C.char
	vecs []**C.char
	mems []unsafe.Pointer // other C memory (credentials' arrays)
	err  error
}

func (a *arena) str(what, s string) *C.char {
	if strings.IndexByte(s, 0) >= 0 {
		if a.err == nil {
			a.err = invalid("%s contains a NUL byte: %q", what, s)
		}
		return nil
	}
	p := C.CString(s)
	a.ptrs = append(a.ptrs, p)
	return p
}

// opt is str for an optional value: "" is absent (NULL).
func (a *arena) opt(what, s string) *C.char {
	if s == "" {
		return nil
	}
	return a.str(what, s)
}

// strv is a NULL-terminated vector; nil is absent (NULL), an empty
// non-nil slice the empty list.
func (a *arena) strv(what string, v []string) **C.char {
	if v == nil {
		return nil
	}
	vec := (**C.char)(C.calloc(C.size_t(len(v)+1), C.size_t(ptrSize)))
	if vec == nil {
		panic("ruas: out of memory")
	}
	a.vecs = append(a.vecs, vec)
	cells := unsafeSlice(vec, len(v)+1)
	for i, s := range v {
		cells[i] = a.str(fmt.Sprintf("%s[%d]", what, i), s)
	}
	return vec
}

func (a *arena) free() {
	for _, p := range a.ptrs {
		C.free(unsafePointer(p))
	}
	for _, v := range a.vecs {
		C.free(unsafePointer(v))
	}
	for _, m := range a.mems {
		C.free(m)
	}
	a.ptrs, a.vecs, a.mems = nil, nil, nil
}
