// SPDX-License-Identifier: ISC

// report.go - Preflight: every startup check of every project, as a Report.

package ruas

/*
#include <stdlib.h>
#include <ruas.h>
*/
import "C"

import (
	"context"
	"unsafe"
)

// Severity is how grave a finding is.
type Severity string

// The severities of a finding.
const (
	SeverityWarning Severity = "warning"
	SeverityFatal   Severity = "fatal"
)

// Item is one finding of a check.
type Item struct {
	Check    string   // the check's stable identifier ("sudo", "escalation", ...; see ruas.h)
	Severity Severity // SeverityFatal or SeverityWarning
	Text     string   // the full text, "ERROR: ..." or "WARNING: ...", ending in a newline
	User     string   // the OS user it is about (run_as_user, the target, "root"); "" where none
	Path     string   // the file or directory it is about (the work_dir, ...); "" where none
	Fix      string   // what to do, in the text's own words; never "" for a fatal item
}

// ProjectReport is the findings of one project.
type ProjectReport struct {
	Name  string
	Items []Item
}

// Report is what Preflight found. Fatal is set when any project has a
// fatal finding: a supervisor must then start nothing of that project.
type Report struct {
	Fatal    bool
	Projects []ProjectReport // in configuration order
	// Host is the findings about the host, shown once (check "proc": /proc
	// shows agents' command lines to every user).
	Host []Item
	// Unjudged is what this supervisor could not judge because only root
	// can read it; root's check (ruas-setup check) judges it.
	Unjudged []Unjudged
}

// Unjudged is a file or directory a check could not read, and what in it
// was not judged.
type Unjudged struct {
	What string
	Path string
}

// Project is the findings of project name, or nil.
func (r *Report) Project(name string) *ProjectReport {
	for i := range r.Projects {
		if r.Projects[i].Name == name {
			return &r.Projects[i]
		}
	}
	return nil
}

// Fatal reports whether the project has a fatal finding.
func (p *ProjectReport) Fatal() bool {
	for _, it := range p.Items {
		if it.Severity == SeverityFatal {
			return true
		}
	}
	return false
}

// Preflight runs every startup check of every project (ruas_preflight):
// passwordless sudo to each target, none from it, work_dir access, the
// descendant scan, groups, what outlives a run. Findings are in the
// Report, not in the error: a nil error with Fatal set is normal. When ctx
// ends first, Preflight returns ctx.Err() at once; the checks already
// under way finish in the background (they are bounded by the
// configuration's scan_time_limit) and their report is dropped.
func (cfg *Config) Preflight(ctx context.Context) (*Report, error) {
	type result struct {
		r   *Report
		err error
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	done := make(chan result, 1)
	cfg.mu.RLock()
	if cfg.c == nil {
		cfg.mu.RUnlock()
		return nil, errClosed()
	}
	go func() {
		defer cfg.mu.RUnlock()
		var rep *C.ruas_report
		var cerr *C.ruas_error
		var o C.ruas_preflight_options
		if err := optionsInit(C.ruas_preflight_options_init(&o, C.RUAS_PREFLIGHT_OPTIONS_VERSION), "preflight"); err != nil {
			done <- result{nil, err}
			return
		}
		sink, err := cfg.auditSink()
		if err != nil {
			done <- result{nil, err}
			return
		}
		if sink != nil {
			o.audit = sink
			defer C.free(unsafe.Pointer(sink))
		}
		if err := takeError(C.ruas_preflight(&rep, cfg.c, &o, &cerr), cerr); err != nil {
			done <- result{nil, err}
			return
		}
		defer C.ruas_report_free(rep)
		done <- result{copyReport(rep), nil}
	}()
	select {
	case res := <-done:
		return res.r, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func copyReport(rep *C.ruas_report) *Report {
	r := &Report{Fatal: C.ruas_report_has_fatal(rep) != 0}
	np := C.ruas_report_project_count(rep)
	for p := C.size_t(0); p < np; p++ {
		pr := ProjectReport{Name: goString(C.ruas_report_project_name(rep, p)), Items: []Item{}}
		ni := C.ruas_report_item_count(rep, p)
		for i := C.size_t(0); i < ni; i++ {
			sev := SeverityWarning
			if C.ruas_report_item_severity(rep, p, i) == C.RUAS_SEVERITY_FATAL {
				sev = SeverityFatal
			}
			pr.Items = append(pr.Items, Item{
				Check:    goString(C.ruas_report_item_check(rep, p, i)),
				Severity: sev,
				Text:     goString(C.ruas_report_item_text(rep, p, i)),
				User:     goString(C.ruas_report_item_user(rep, p, i)),
				Path:     goString(C.ruas_report_item_path(rep, p, i)),
				Fix:      goString(C.ruas_report_item_fix(rep, p, i)),
			})
		}
		r.Projects = append(r.Projects, pr)
	}
	r.Host = []Item{}
	for i := C.size_t(0); i < C.ruas_report_host_count(rep); i++ {
		sev := SeverityWarning
		if C.ruas_report_host_severity(rep, i) == C.RUAS_SEVERITY_FATAL {
			sev = SeverityFatal
		}
		r.Host = append(r.Host, Item{
			Check:    goString(C.ruas_report_host_check(rep, i)),
			Severity: sev,
			Text:     goString(C.ruas_report_host_text(rep, i)),
			Path:     goString(C.ruas_report_host_path(rep, i)),
			Fix:      goString(C.ruas_report_host_fix(rep, i)),
		})
	}
	r.Unjudged = []Unjudged{}
	for i := C.size_t(0); i < C.ruas_report_unjudged_count(rep); i++ {
		r.Unjudged = append(r.Unjudged, Unjudged{
			What: goString(C.ruas_report_unjudged_what(rep, i)),
			Path: goString(C.ruas_report_unjudged_path(rep, i)),
		})
	}
	return r
}
