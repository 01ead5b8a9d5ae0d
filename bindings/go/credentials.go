// SPDX-License-Identifier: ISC

// credentials.go - credentials on demand (docs/credentials.md) in Go: the
// Credential specs of Globals and ProjectSpec, and Cmd.Credentials, the
// function behind ruas_spawn_options' credential_callback.

package ruas

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <ruas.h>

extern int ruasGoCredential(char *project, char *name, char *value, size_t value_size,
			    uintptr_t key);

// The spawn's callback: the payload back to the integer it is, before Go
// sees it, as audit.go's sink does.
static int ruas_go_credential_callback(const char *project, const char *name, char *value,
				       size_t value_size, void *payload)
{
	return ruasGoCredential((char *)project, (char *)name, value, value_size,
				(uintptr_t)payload);
}

// Sets the options' callback (Go cannot make a C function pointer itself)
// with the registry's key as its payload, an integer, never a Go pointer.
static void ruas_go_credential_options(ruas_spawn_options *o, uintptr_t key)
{
	o->credential_callback = ruas_go_credential_callback;
	o->credential_payload = (void *)key;
}
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Credential is one credential the supervisor hands a run on request
// (ruas.conf(5) "credentials", docs/credentials.md), in Globals.Credentials
// (every project's) or ProjectSpec.Credentials (a project's own, each
// replacing a global one of the same name). Name is required
// (^[a-z0-9][a-z0-9_.-]*$, at most 64 bytes), and exactly one source:
// FromEnv, a variable of the spawn's environment (Cmd.Env, else this
// process's); FromCommand, a command the supervisor runs, its stdout; or
// FromFile, an absolute path that only the supervisor may read. TTL, only
// with FromCommand, is how long its output is kept, whole seconds (0:
// absent, not kept; at most 24 h). The library judges each with the
// file's messages (ErrConfig); a project with credentials needs RunAsUser.
type Credential struct {
	Name        string
	FromEnv     string
	FromCommand []string // nil: absent; an empty non-nil one is refused
	FromFile    string
	TTL         time.Duration
}

// credentials is the C array of cs for a spec, and its length; nil, 0 for
// none. Freed with the arena.
func (a *arena) credentials(what string, cs []Credential) (*C.ruas_credential_spec, C.size_t) {
	if len(cs) == 0 {
		return nil, 0
	}
	arr := (*C.ruas_credential_spec)(C.calloc(C.size_t(len(cs)), C.size_t(unsafe.Sizeof(C.ruas_credential_spec{}))))
	if arr == nil {
		panic("ruas: out of memory")
	}
	a.mems = append(a.mems, unsafe.Pointer(arr))
	specs := unsafe.Slice(arr, len(cs))
	for i, c := range cs {
		key := fmt.Sprintf("%s[%d]", what, i)
		// Name "" crosses as NULL: the library's message says it is missing.
		specs[i].name = a.opt(key+".Name", c.Name)
		specs[i].from_env = a.opt(key+".FromEnv", c.FromEnv)
		specs[i].from_command = a.strv(key+".FromCommand", c.FromCommand)
		specs[i].from_file = a.opt(key+".FromFile", c.FromFile)
		ttl, err := seconds(key+".TTL", c.TTL)
		if err != nil && a.err == nil {
			a.err = err
		}
		specs[i].ttl = ttl
	}
	return arr, C.size_t(len(cs))
}

// credentialSource is a Cmd's Credentials function, found by key from C
// (an integer: no Go pointer crosses into the library). Its Process holds
// it until the handle is freed, which is when the library stops calling.
type credentialSource struct {
	fn       func(project, name string) (string, bool, error)
	failures atomic.Int64
	mu       sync.Mutex
	err      error
}

var (
	credentialSources sync.Map // uintptr -> *credentialSource
	credentialKey     atomic.Uintptr
)

func registerCredentials(fn func(project, name string) (string, bool, error)) (uintptr, *credentialSource) {
	src := &credentialSource{fn: fn}
	key := credentialKey.Add(1)
	credentialSources.Store(key, src)
	return key, src
}

func releaseCredentials(key uintptr) {
	if key != 0 {
		credentialSources.Delete(key)
	}
}

func (s *credentialSource) fail(err error) C.int {
	s.failures.Add(1)
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	return -1
}

//export ruasGoCredential
func ruasGoCredential(project, name, value *C.char, size C.size_t, key C.uintptr_t) (r C.int) {
	v, ok := credentialSources.Load(uintptr(key))
	if !ok {
		return -1 // a Process already freed: the library no longer calls it
	}
	s := v.(*credentialSource)
	n := goString(name)
	defer func() {
		// It runs inside C: a panic must not unwind through it.
		if p := recover(); p != nil {
			r = s.fail(invalid("credential %q: the Credentials function panicked: %v", n, p))
		}
	}()
	val, has, err := s.fn(goString(project), n)
	switch {
	case err != nil:
		return s.fail(err)
	case !has:
		return 0
	case val == "":
		return s.fail(invalid("credential %q: the Credentials function gave an empty value", n))
	case strings.IndexByte(val, 0) >= 0:
		return s.fail(invalid("credential %q: the value holds a NUL byte", n))
	case uint64(len(val)) >= uint64(size):
		return s.fail(invalid("credential %q: the value is %d bytes, over the %d a credential can have",
			n, len(val), uint64(size)-1))
	}
	buf := unsafe.Slice((*byte)(unsafe.Pointer(value)), int(size))
	copy(buf, val)
	buf[len(val)] = 0
	return C.int(len(val))
}

// credentialOptions sets o's callback to key's source.
func credentialOptions(o *C.ruas_spawn_options, key uintptr) {
	C.ruas_go_credential_options(o, C.uintptr_t(key))
}

// CredentialFailures is how many requests the Cmd's Credentials function
// failed (returned an error, panicked, or gave a value that cannot be
// one), and the last such error; 0, nil without one or before Start.
func (c *Cmd) CredentialFailures() (int64, error) {
	if c.credentials == nil {
		return 0, nil
	}
	c.credentials.mu.Lock()
	defer c.credentials.mu.Unlock()
	return c.credentials.failures.Load(), c.credentials.err
}

// credentialCall calls key's source as the library does, with a buffer of
// size bytes filled with 0x55, and returns what it returned and the buffer
// (credentials_internal_test.go: Go's tests cannot make C memory).
func credentialCall(key uintptr, project, name string, size int) (int, []byte) {
	var a arena
	defer a.free()
	buf := (*C.char)(C.malloc(C.size_t(size)))
	if buf == nil {
		panic("ruas: out of memory")
	}
	defer C.free(unsafe.Pointer(buf))
	C.memset(unsafe.Pointer(buf), 0x55, C.size_t(size))
	r := ruasGoCredential(a.str("project", project), a.str("name", name), buf, C.size_t(size),
		C.uintptr_t(key))
	return int(r), C.GoBytes(unsafe.Pointer(buf), C.int(size))
}
