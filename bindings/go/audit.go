// SPDX-License-Identifier: ISC

// audit.go - the audit trail in Go: Config.OnAudit gets each record (start,
// end, check) instead of syslog, as ruas_audit_sink's callback does in C.

package ruas

/*
#include <stdint.h>
#include <stdlib.h>
#include <ruas.h>

extern void ruasGoAudit(ruas_audit_record *record, uintptr_t key);

// The sink's callback: the payload back to the integer it is, before Go
// sees it (a small integer in a Go pointer's slot is not one Go may hold).
static void ruas_go_audit_callback(const ruas_audit_record *record, void *payload)
{
	ruasGoAudit((ruas_audit_record *)record, (uintptr_t)payload);
}

// A sink in C memory (the library copies it): the callback above, the
// payload the registry's key, an integer, never a Go pointer. The one piece
// of C this package keeps, since Go can make neither a C function pointer
// to the callback nor a void * that holds an integer.
static ruas_audit_sink *ruas_go_audit_sink(uintptr_t key)
{
	ruas_audit_sink *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	if (ruas_audit_sink_init(s, RUAS_AUDIT_SINK_VERSION) != 0) {
		free(s);
		return NULL;
	}
	s->to = RUAS_AUDIT_TO_CALLBACK;
	s->callback = ruas_go_audit_callback;
	s->payload = (void *)key;
	return s;
}
*/
import "C"

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// AuditRecord is one audit record (docs/audit.md): Event is "start", "end",
// "check" or "audit"; Run the run id of a start or end (else ""); Line the
// record as syslog gets it ("KIND key=value ..."); JSON the same as one
// JSON object.
type AuditRecord struct {
	Event string
	Run   string
	Line  string
	JSON  string
}

// auditor is a Config's OnAudit function, found by key from C: the key is
// an integer, so no Go pointer ever crosses into the library. The Config
// and each Process spawned with it hold a reference, so that the end
// record of a run that outlives its Config (or a later OnAudit) still
// reaches the function it started with.
type auditor struct {
	fn       func(AuditRecord)
	failures atomic.Int64
	refs     atomic.Int64
}

// acquireAuditor takes a reference to key's auditor; 0 when there is none.
func acquireAuditor(key uintptr) uintptr {
	if v, ok := auditors.Load(key); ok && key != 0 {
		v.(*auditor).refs.Add(1)
		return key
	}
	return 0
}

// releaseAuditor drops one; the last takes it out of the registry.
func releaseAuditor(key uintptr) {
	if v, ok := auditors.Load(key); ok && key != 0 && v.(*auditor).refs.Add(-1) == 0 {
		auditors.Delete(key)
	}
}

var (
	auditors   sync.Map // uintptr -> *auditor
	auditorKey atomic.Uintptr
	lostAudit  atomic.Int64 // records for a Config already closed
)

//export ruasGoAudit
func ruasGoAudit(rec *C.ruas_audit_record, key C.uintptr_t) {
	v, ok := auditors.Load(uintptr(key))
	if !ok {
		lostAudit.Add(1)
		return
	}
	a := v.(*auditor)
	r := AuditRecord{Event: goString(rec.event), Run: goString(rec.run), Line: goString(rec.line),
		JSON: goString(rec.json)}
	defer func() {
		// It runs inside C: a panic must not unwind through it.
		if recover() != nil {
			a.failures.Add(1)
		}
	}()
	a.fn(r)
}

// OnAudit sends every audit record of this configuration's spawns and
// preflights to fn, in the goroutine that made it (the spawn's for a start,
// the reaper's for an end), instead of syslog; the configuration's
// audit_log file still gets them all. fn must not block for long. A panic
// in fn is recovered and counted (AuditFailures), never lost in silence.
// nil stops it. Set it before the spawns whose records it should get.
func (cfg *Config) OnAudit(fn func(AuditRecord)) {
	cfg.mu.Lock()
	defer cfg.mu.Unlock()
	releaseAuditor(cfg.auditKey)
	cfg.auditKey = 0
	if fn != nil {
		a := &auditor{fn: fn}
		a.refs.Store(1)
		cfg.auditKey = auditorKey.Add(1)
		auditors.Store(cfg.auditKey, a)
	}
}

// AuditFailures is how many records the OnAudit function panicked on, and
// how many came for a function no longer held (none should: each run holds
// the one it started with).
func (cfg *Config) AuditFailures() int64 {
	cfg.mu.RLock()
	defer cfg.mu.RUnlock()
	n := lostAudit.Load()
	if v, ok := auditors.Load(cfg.auditKey); ok && cfg.auditKey != 0 {
		n += v.(*auditor).failures.Load()
	}
	return n
}

// AuditUndelivered is how many audit records of this configuration no sink
// took: a syslog daemon that did not read in time (each record gets 250 ms,
// never a hang), a sink descriptor that refused the write.
func (cfg *Config) AuditUndelivered() uint64 {
	cfg.mu.RLock()
	defer cfg.mu.RUnlock()
	if cfg.c == nil {
		return 0
	}
	return uint64(C.ruas_config_audit_undelivered(cfg.c))
}

// auditSink is the C sink for this configuration's calls, or nil without
// OnAudit; free it with C.free after the call (the library copies it).
// Under cfg.mu.
func (cfg *Config) auditSink() (*C.ruas_audit_sink, error) {
	if cfg.auditKey == 0 {
		return nil, nil
	}
	s := C.ruas_go_audit_sink(C.uintptr_t(cfg.auditKey))
	if s == nil {
		return nil, fmt.Errorf("ruas: out of memory, or an installed libruas older than its ruas.h")
	}
	return s, nil
}
