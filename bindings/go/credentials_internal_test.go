// SPDX-License-Identifier: ISC

// credentials_internal_test.go - the callback the library calls for a
// Cmd's Credentials function, called as C calls it: the value and a NUL
// copied into C's buffer, its length returned; no credential 0; an error,
// a panic, a value that does not fit in size - 1 bytes, an empty one or
// one with a NUL -1, counted and kept, nothing written.

package ruas

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestCredentialCallback(t *testing.T) {
	var calls []string
	sealed := errors.New("the vault is sealed")
	key, src := registerCredentials(func(project, name string) (string, bool, error) {
		calls = append(calls, project+"/"+name)
		switch name {
		case "tok":
			return "sk-abc", true, nil
		case "fits":
			return strings.Repeat("x", 15), true, nil
		case "long":
			return strings.Repeat("x", 16), true, nil
		case "empty":
			return "", true, nil
		case "nul":
			return "a\x00b", true, nil
		case "sealed":
			return "", false, sealed
		case "panics":
			panic("boom")
		}
		return "", false, nil
	})
	defer releaseCredentials(key)
	untouched := bytes.Repeat([]byte{0x55}, 16)
	if r, buf := credentialCall(key, "proj", "tok", 16); r != 6 || string(buf[:7]) != "sk-abc\x00" {
		t.Fatalf("tok: %d %q", r, buf)
	}
	if r, buf := credentialCall(key, "proj", "fits", 16); r != 15 || string(buf) != strings.Repeat("x", 15)+"\x00" {
		t.Fatalf("fits: %d %q", r, buf)
	}
	if r, buf := credentialCall(key, "proj", "nosuch", 16); r != 0 || !bytes.Equal(buf, untouched) {
		t.Fatalf("nosuch: %d %q", r, buf)
	}
	if n, err := src.failures.Load(), src.err; n != 0 || err != nil {
		t.Fatalf("no failure yet: %d %v", n, err)
	}
	for _, name := range []string{"long", "empty", "nul", "panics", "sealed"} {
		if r, buf := credentialCall(key, "proj", name, 16); r != -1 || !bytes.Equal(buf, untouched) {
			t.Fatalf("%s: %d %q, want -1 and nothing written", name, r, buf)
		}
	}
	if n := src.failures.Load(); n != 5 || !errors.Is(src.err, sealed) {
		t.Fatalf("failures %d, last %v", n, src.err)
	}
	if calls[0] != "proj/tok" {
		t.Fatalf("calls %q", calls)
	}
	// A key no longer held (a Process freed): failed, never a call.
	releaseCredentials(key)
	calls = nil
	if r, _ := credentialCall(key, "proj", "tok", 16); r != -1 || calls != nil {
		t.Fatalf("a released key: %d %q", r, calls)
	}
}
