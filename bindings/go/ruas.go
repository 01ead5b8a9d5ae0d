// SPDX-License-Identifier: ISC

// ruas.go - the cgo link to libruas (found with pkg-config) and the
// conversions between C and Go values that the other files share.

package ruas

/*
#cgo pkg-config: ruas
#include <ruas.h>
*/
import "C"

import "unsafe"

// Version is the version of ruas.h this package was built against.
const Version = C.RUAS_VERSION

const ptrSize = unsafe.Sizeof((*C.char)(nil))

func unsafePointer(p interface{}) unsafe.Pointer {
	switch v := p.(type) {
	case *C.char:
		return unsafe.Pointer(v)
	case **C.char:
		return unsafe.Pointer(v)
	}
	panic("ruas: unsafePointer of an unexpected type")
}

// unsafeSlice views n cells of a C vector as a Go slice (C memory: no
// Go pointer is ever stored in it).
func unsafeSlice(vec **C.char, n int) []*C.char {
	return unsafe.Slice(vec, n)
}

// goStrings copies a NULL-terminated C vector; nil for NULL.
func goStrings(vec **C.char) []string {
	if vec == nil {
		return nil
	}
	out := []string{}
	for p := vec; *p != nil; p = (**C.char)(unsafe.Add(unsafe.Pointer(p), ptrSize)) {
		out = append(out, C.GoString(*p))
	}
	return out
}

// goString is C.GoString with NULL as "".
func goString(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}
