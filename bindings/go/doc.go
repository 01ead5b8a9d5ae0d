// SPDX-License-Identifier: ISC

// Package ruas starts coding agents as less-privileged Unix users through
// libruas, the way os/exec starts programs: code written for exec.Cmd
// ports by changing its constructor, and any *exec.ExitError it looks for
// to *ruas.ExitError.
//
//	cfg, err := ruas.LoadConfig("/etc/ruas/ruas.conf")
//	...
//	rep, err := cfg.Preflight(ctx)
//	if err != nil || rep.Fatal { ... refuse to start anything ... }
//	cmd := cfg.CommandContext(ctx, "myproject", "--print")
//	cmd.Stdin = strings.NewReader(prompt)
//	out, err := cmd.Output()
//
// A project runs as its run_as_user through sudo (or PAM, for a root
// supervisor); the library checks before anything starts that the
// boundary between the supervisor and that user is real (Preflight), and
// hands the agent its arguments, work directory, allowlisted variables and
// descriptors over an authenticated channel. Cancelling a command's
// context ends the agent's whole tree: SIGTERM, then SIGKILL after the
// project's terminate_grace.
//
// Concurrency: a *Config is safe for concurrent use (AddProject and Close
// take it exclusively, the rest share it); a *Process may be signalled
// from any goroutine while another waits for it; a *Cmd, as an exec.Cmd,
// belongs to one goroutine. Waiting parks the goroutine on the child's
// pidfd in the runtime's netpoller, so a thousand waiting agents hold no
// thousand OS threads.
//
// Credentials (docs/credentials.md): Globals.Credentials and
// ProjectSpec.Credentials are ruas.conf's credentials key in code, and
// Cmd.Credentials is a function that gives a run the ones no configured
// source has, asked when its agent runs ruas-credential NAME.
//
// The package keeps nothing of its own beyond the C handles: every value
// of a Config is read from the library when asked for.
//
// It is built with cgo against the installed library, found with
// pkg-config (package "ruas").
//
// ruas is free software under the ISC license (the LICENSE file of this
// module, the same as the ruas source tree's).
package ruas
