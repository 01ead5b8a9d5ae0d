// SPDX-License-Identifier: ISC

// ruas_test.go - tests that need no root: error mapping, hostile strings
// through NewConfig/AddProject, and legacy-mode projects (no run_as_user),
// which run as this process's own user through the library. The
// run_as_user tests are in tests/integration/go.sh and supervisor_test.go.

package ruas_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ruas.dev/ruas"
)

// legacy is a built-in-code configuration whose projects run as this user.
func legacy(t *testing.T, projects ...ruas.ProjectSpec) (*ruas.Config, string) {
	t.Helper()
	dir := t.TempDir()
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{EnvAllowlist: []string{"BRIDGE_TOKEN"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cfg.Close() })
	for _, p := range projects {
		if p.WorkDir == "" {
			p.WorkDir = dir
		}
		if err := cfg.AddProject(p); err != nil {
			t.Fatalf("AddProject(%q): %v", p.Name, err)
		}
	}
	return cfg, dir
}

func sh(name, script string) ruas.ProjectSpec {
	return ruas.ProjectSpec{Name: name, Command: []string{"/bin/sh", "-c", script, name}}
}

func TestLoadConfigErrors(t *testing.T) {
	_, err := ruas.LoadConfig(filepath.Join(t.TempDir(), "missing.conf"))
	var re *ruas.Error
	if !errors.As(err, &re) || re.Message == "" {
		t.Fatalf("a missing file: %T %v, want *ruas.Error", err, err)
	}
	path := filepath.Join(t.TempDir(), "bad.conf")
	if err := os.WriteFile(path, []byte("projects = (\n  { name = \"x\"; \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ruas.LoadConfig(path)
	if !errors.Is(err, ruas.ErrConfig) || !errors.As(err, &re) || re.File != path || re.Line == 0 {
		t.Fatalf("a syntax error: %#v, want ErrConfig naming %s and a line", err, path)
	}
	if errors.Is(err, ruas.ErrInvalid) {
		t.Fatal("ErrConfig also matched ErrInvalid")
	}
	_, err = ruas.LoadConfig("a\x00b")
	if !errors.Is(err, ruas.ErrInvalid) {
		t.Fatalf("a NUL in the path: %v", err)
	}
}

// A start that failed is Start's error, as exec.Cmd's: ErrStart with its
// stage, unwrapping to the errno (fs.ErrNotExist for what is not there).
func TestStartErrorUnwrapsErrno(t *testing.T) {
	cfg, dir := legacy(t, sh("p", "true"), ruas.ProjectSpec{Name: "gone", Command: []string{"/nonexistent/ruas-cmd"}})
	err := cfg.Command("p").Run()
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Command("p")
	c.Dir = "missing"
	err = c.Run()
	var e *ruas.Error
	if !errors.Is(err, ruas.ErrStart) || !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &e) ||
		e.Stage != "work_dir" {
		t.Fatalf("a missing Dir under %s: %v, want ErrStart at work_dir and ENOENT", dir, err)
	}
	err = cfg.Command("gone").Start()
	if !errors.Is(err, ruas.ErrStart) || !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &e) ||
		e.Stage != "exec" || e.File != "/nonexistent/ruas-cmd" {
		t.Fatalf("a command not found: %v, want ErrStart at exec, ENOENT, the command", err)
	}
	if err := cfg.Command("nope").Run(); !errors.Is(err, ruas.ErrNotFound) {
		t.Fatalf("an unknown project: %v", err)
	}
}

// Hostile strings are refused, naming the problem, and leave the
// configuration as it was; or they are taken and passed byte for byte.
func TestHostileProjectsRefused(t *testing.T) {
	cfg, dir := legacy(t)
	inject := `x"; run_as_user = "root`
	cases := []struct {
		what string
		spec ruas.ProjectSpec
		code ruas.Code
		says string
	}{
		{"name with quotes", ruas.ProjectSpec{Name: inject, WorkDir: dir, Command: []string{"true"}}, ruas.ErrConfig, "name"},
		{"name with a newline", ruas.ProjectSpec{Name: "a\nb", WorkDir: dir, Command: []string{"true"}}, ruas.ErrConfig, "name"},
		{"empty name", ruas.ProjectSpec{Name: "", WorkDir: dir, Command: []string{"true"}}, ruas.ErrConfig, "name"},
		{"run_as_user injection", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}, RunAsUser: inject}, ruas.ErrConfig, "run_as_user"},
		{"run_as_user with a newline", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}, RunAsUser: "t1\nroot"}, ruas.ErrConfig, "run_as_user"},
		{"run_as_user root", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}, RunAsUser: "root"}, ruas.ErrConfig, "root"},
		{"relative work_dir", ruas.ProjectSpec{Name: "p", WorkDir: "w\"; x", Command: []string{"true"}}, ruas.ErrConfig, "work_dir"},
		{"no command", ruas.ProjectSpec{Name: "p", WorkDir: dir}, ruas.ErrConfig, "command"},
		{"empty command", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{}}, ruas.ErrConfig, "command"},
		{"env_allowlist injection", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}, EnvAllowlist: []string{inject}}, ruas.ErrConfig, "env_allowlist"},
		{"NUL in the name", ruas.ProjectSpec{Name: "p\x00q", WorkDir: dir, Command: []string{"true"}}, ruas.ErrInvalid, "ProjectSpec.Name"},
		{"NUL in the command", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"a\x00b"}}, ruas.ErrInvalid, "ProjectSpec.Command[0]"},
		{"grace not whole seconds", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}, TerminateGrace: 1500 * time.Millisecond}, ruas.ErrInvalid, "terminate_grace"},
		{"grace out of range", ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}, TerminateGrace: 2 * time.Hour}, ruas.ErrConfig, "terminate_grace"},
	}
	for _, c := range cases {
		err := cfg.AddProject(c.spec)
		var re *ruas.Error
		if !errors.As(err, &re) || re.Code != c.code || !strings.Contains(re.Message, c.says) {
			t.Errorf("%s: %v, want %v naming %q", c.what, err, c.code, c.says)
			continue
		}
		if re.File != "" || re.Line != 0 {
			t.Errorf("%s: a configuration built in code has no file and line: %#v", c.what, re)
		}
		t.Logf("%s: %s", c.what, re.Message)
	}
	if n := len(cfg.Projects()); n != 0 {
		t.Fatalf("refused projects were added: %v", cfg.Projects())
	}
	// A duplicate name, after a good one.
	if err := cfg.AddProject(ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"true"}}); err != nil {
		t.Fatal(err)
	}
	err := cfg.AddProject(ruas.ProjectSpec{Name: "p", WorkDir: dir, Command: []string{"false"}})
	if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), `duplicate project name "p"`) {
		t.Fatalf("a duplicate: %v", err)
	}
	if p, _ := cfg.Project("p"); p.Command[0] != "true" || len(cfg.Projects()) != 1 {
		t.Fatalf("the duplicate changed the configuration: %+v", p)
	}
}

func TestHostileStringsPassedExactly(t *testing.T) {
	hostile := []string{`"; run_as_user = "root`, "line1\nline2\n", `'$(id)' \"`, "", " ", "$HOME", "-n"}
	cmd := append([]string{"/bin/sh", "-c", `printf '%s\0' "$@"`, "sh"}, hostile...)
	cfg, dir := legacy(t, ruas.ProjectSpec{Name: "echo", Command: cmd})
	p, ok := cfg.Project("echo")
	if !ok || strings.Join(p.Command, "|") != strings.Join(cmd, "|") || p.WorkDir != dir || p.RunAsUser != "" || p.Backend != "none" {
		t.Fatalf("the project as the library holds it: %+v", p)
	}
	out, err := cfg.Command("echo", hostile...).Output()
	if err != nil {
		t.Fatal(err)
	}
	all := append(append([]string{}, hostile...), hostile...)
	if want := strings.Join(all, "\x00") + "\x00"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
	// A work_dir whose name is libconfig syntax, with a newline.
	odd := filepath.Join(t.TempDir(), "w\"; run_as_user = \"root\n")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	err = cfg.AddProject(ruas.ProjectSpec{Name: "odd", WorkDir: odd, Command: []string{"/bin/pwd", "-P"}})
	if err != nil {
		if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), "work_dir") {
			t.Fatalf("an odd work_dir: refused, but not naming it: %v", err)
		}
		return
	}
	out, err = cfg.Command("odd").Output()
	real, _ := filepath.EvalSymlinks(odd)
	if err != nil || string(out) != real+"\n" {
		t.Fatalf("the odd work_dir: %q %v, want %q", out, err, real)
	}
}

func TestExitCodesAndOutput(t *testing.T) {
	cfg, _ := legacy(t, sh("three", `echo out; echo err >&2; exit 3`), sh("both", `echo a; echo b >&2`))
	out, err := cfg.Command("three").Output()
	var ee *ruas.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || ee.Success() || string(out) != "out\n" || string(ee.Stderr) != "err\n" {
		t.Fatalf("Output: %q %v (%+v)", out, err, ee)
	}
	if ws := ee.Sys().(syscall.WaitStatus); !ws.Exited() || ws.ExitStatus() != 3 || err.Error() != "exit status 3" {
		t.Fatalf("Sys: %v, %q", ws, err)
	}
	out, err = cfg.Command("both").CombinedOutput()
	if err != nil || string(out) != "a\nb\n" {
		t.Fatalf("CombinedOutput: %q %v", out, err)
	}
	c := cfg.Command("both")
	if err := c.Run(); err != nil || !c.ProcessState.Success() || c.ProcessState.ExitCode() != 0 {
		t.Fatalf("Run: %v %v", err, c.ProcessState)
	}
	if err := c.Process.Signal(syscall.SIGTERM); !errors.Is(err, os.ErrProcessDone) {
		t.Fatalf("Signal after Wait: %v", err)
	}
	if err := c.Wait(); err == nil {
		t.Fatal("a second Wait did not fail")
	}
}

func TestRunID(t *testing.T) {
	cfg, _ := legacy(t, sh("id", `printf %s "$RUAS_RUN_ID"`))
	c := cfg.Command("id")
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := regexp.MatchString("^[0-9a-f]{32}$", c.Process.RunID); !ok || string(out) != c.Process.RunID {
		t.Fatalf("RunID %q, the agent's RUAS_RUN_ID %q", c.Process.RunID, out)
	}
}

func TestEnvAndDir(t *testing.T) {
	cfg, dir := legacy(t, ruas.ProjectSpec{Name: "env", Command: []string{"/bin/sh", "-c", `printf '%s|%s' "$BRIDGE_TOKEN" "$(pwd -P)"`}})
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := cfg.Command("env")
	c.Env = []string{"BRIDGE_TOKEN=tok\nen \"x\""}
	c.Dir = "sub"
	out, err := c.Output()
	real, _ := filepath.EvalSymlinks(filepath.Join(dir, "sub"))
	if err != nil || string(out) != "tok\nen \"x\"|"+real {
		t.Fatalf("Env and Dir: %q %v", out, err)
	}
	// As exec.Cmd: a non-nil Env is the whole environment, nothing of this process's.
	t.Setenv("BRIDGE_TOKEN", "from-the-supervisor")
	c = cfg.Command("env")
	c.Env = []string{}
	if out, err := c.Output(); err != nil || !strings.HasPrefix(string(out), "|") {
		t.Fatalf("Env empty but not nil: %q %v", out, err)
	}
	c = cfg.Command("env")
	if out, err := c.Output(); err != nil || !strings.HasPrefix(string(out), "from-the-supervisor|") {
		t.Fatalf("Env nil: this process's environment: %q %v", out, err)
	}
	// exec.Cmd's habit: this process's environment and one more value, the last of a name winning.
	c = cfg.Command("env")
	c.Env = append(os.Environ(), "PATH=/usr/bin:/bin", "BRIDGE_TOKEN=appended")
	if out, err := c.Output(); err != nil || !strings.HasPrefix(string(out), "appended|") {
		t.Fatalf("append(os.Environ(), ...): %q %v", out, err)
	}
	// SetEnv is strict: a name outside the allowlist is refused, naming it.
	c = cfg.Command("env")
	c.SetEnv = []string{"NOT_ALLOWED=1"}
	if _, err := c.Output(); !errors.Is(err, ruas.ErrInvalid) || !strings.Contains(err.Error(), "NOT_ALLOWED") {
		t.Fatalf("SetEnv of a name not allowlisted: %v", err)
	}
	c = cfg.Command("env")
	c.Env = []string{"BRIDGE_TOKEN=from-env"}
	c.SetEnv = []string{"BRIDGE_TOKEN=from-set-env"}
	if out, err := c.Output(); err != nil || !strings.HasPrefix(string(out), "from-set-env|") {
		t.Fatalf("SetEnv over Env: %q %v", out, err)
	}
	c = cfg.Command("env")
	c.Dir = "../"
	if _, err := c.Output(); !errors.Is(err, ruas.ErrEscape) && !errors.Is(err, ruas.ErrInvalid) {
		t.Fatalf("a Dir out of work_dir: %v", err)
	}
}

// An NDJSON agent over StdinPipe and StdoutPipe, interrupted with SIGINT.
func TestPipesAndSignals(t *testing.T) {
	// dash's read returns 1 when a trapped SIGINT cuts it short, as at end of
	// file: after an interruption the loop reads again instead of ending.
	agent := `i=0
trap 'i=1; echo "{\"interrupted\":true}"' INT
while :; do
	if read -r line; then printf '{"echo":%s}\n' "$line"; i=0
	elif [ "$i" = 1 ]; then i=0
	else break; fi
done; exit 0`
	cfg, _ := legacy(t, sh("agent", agent))
	c := cfg.Command("agent")
	in, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	in.Write([]byte("{\"n\":1}\n"))
	if l, _ := r.ReadString('\n'); l != "{\"echo\":{\"n\":1}}\n" {
		t.Fatalf("first reply: %q", l)
	}
	if err := c.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	in.Write([]byte("{\"n\":2}\n"))
	var got []string
	for len(got) < 2 {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after SIGINT: %v (%q)", err, got)
		}
		var v map[string]interface{}
		if json.Unmarshal([]byte(l), &v) != nil {
			t.Fatalf("not JSON: %q", l)
		}
		got = append(got, strings.TrimSpace(l))
	}
	if !strings.Contains(strings.Join(got, " "), `{"interrupted":true}`) {
		t.Fatalf("no interruption reply: %q", got)
	}
	in.Close()
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	c = cfg.Command("agent")
	c.Stdin = strings.NewReader("")
	c.Stdin = nil
	in, _ = c.StdinPipe()
	defer in.Close()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	c.Process.Kill()
	err := c.Wait()
	var ee *ruas.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != -1 || ee.Signal() != syscall.SIGKILL ||
		!ee.Sys().(syscall.WaitStatus).Signaled() || err.Error() != "signal: killed" {
		t.Fatalf("Kill: %v", err)
	}
}

func TestContextCancel(t *testing.T) {
	cfg, _ := legacy(t, sh("sleeper", `echo started; exec sleep 100`))
	ctx, cancel := context.WithCancel(context.Background())
	c := cfg.CommandContext(ctx, "sleeper")
	out, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(out).ReadString('\n')
	start := time.Now()
	cancel()
	err := c.Wait()
	if err == nil || c.ProcessState.Signal() != syscall.SIGTERM || time.Since(start) > 5*time.Second {
		t.Fatalf("cancel: %v, %v after %v", err, c.ProcessState, time.Since(start))
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if err := cfg.CommandContext(ctx, "sleeper").Start(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Start with a done context: %v", err)
	}
}

// A grandchild that keeps stdout open: WaitDelay cuts it off.
func TestWaitDelay(t *testing.T) {
	cfg, _ := legacy(t, sh("leaky", `sleep 3 & echo hi`))
	c := cfg.Command("leaky")
	var b bytes.Buffer
	c.Stdout = &b
	c.WaitDelay = 200 * time.Millisecond
	start := time.Now()
	err := c.Run()
	if !errors.Is(err, ruas.ErrWaitDelay) || time.Since(start) > 2*time.Second || b.String() != "hi\n" {
		t.Fatalf("WaitDelay: %v after %v, %q", err, time.Since(start), b.String())
	}
}

func TestTenMiB(t *testing.T) {
	const size = 10 << 20
	cfg, _ := legacy(t, sh("big", `yes 0123456789abcdef | head -c 10485760`))
	out, err := cfg.Command("big").Output()
	want := sha256.Sum256(bytes.Repeat([]byte("0123456789abcdef\n"), size/17+1)[:size])
	if err != nil || len(out) != size || sha256.Sum256(out) != want {
		t.Fatalf("10 MiB: %d bytes, %v", len(out), err)
	}
}

func threads(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "Threads:") {
			var n int
			for _, f := range strings.Fields(l)[1:] {
				for _, ch := range f {
					n = n*10 + int(ch-'0')
				}
			}
			return n
		}
	}
	return 0
}

// Many children waited on at once hold no OS thread each: the waits park
// on the pidfds in the netpoller.
func TestWaitHoldsNoThread(t *testing.T) {
	const n = 64
	cfg, _ := legacy(t, sh("nap", `exec sleep 2`))
	before := threads(t)
	done := make(chan error, n)
	for i := 0; i < n; i++ {
		c := cfg.Command("nap")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- c.Wait() }()
	}
	time.Sleep(500 * time.Millisecond)
	during := threads(t)
	for i := 0; i < n; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if during-before > n/4 {
		t.Fatalf("%d threads while %d children were waited on (before: %d)", during, n, before)
	}
	t.Logf("threads: %d before, %d while %d children were waited on", before, during, n)
}

// Commands run from several goroutines while another adds projects.
func TestConcurrentUse(t *testing.T) {
	cfg, dir := legacy(t, sh("echo", `cat`))
	done := make(chan error)
	for i := 0; i < 4; i++ {
		go func(i int) {
			var err error
			for j := 0; j < 10 && err == nil; j++ {
				c := cfg.Command("echo")
				c.Stdin = strings.NewReader("x")
				var out []byte
				if out, err = c.Output(); err == nil && string(out) != "x" {
					err = errors.New("wrong output " + string(out))
				}
			}
			done <- err
		}(i)
	}
	go func() {
		var err error
		for j := 0; j < 20 && err == nil; j++ {
			err = cfg.AddProject(ruas.ProjectSpec{Name: "extra" + string(rune('a'+j)), WorkDir: dir, Command: []string{"true"}})
			cfg.Projects()
		}
		done <- err
	}()
	for i := 0; i < 5; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	rep, err := cfg.Preflight(context.Background())
	if err != nil || rep.Fatal || len(rep.Projects) != 21 {
		t.Fatalf("Preflight: %v %+v", err, rep)
	}
	// The host's findings come once, not per project; as root nothing is unjudged.
	for _, it := range rep.Host {
		if it.Check != "proc" || it.Severity != ruas.SeverityWarning || !strings.Contains(it.Text, "hidepid") ||
			it.User != "" || it.Path != "/proc" || it.Fix == "" || !strings.Contains(it.Text, it.Fix) {
			t.Fatalf("host item %+v", it)
		}
	}
	if len(rep.Host) > 1 || rep.Unjudged == nil || (os.Geteuid() == 0 && len(rep.Unjudged) != 0) {
		t.Fatalf("host %+v unjudged %+v", rep.Host, rep.Unjudged)
	}
}

func TestClosed(t *testing.T) {
	cfg, _ := legacy(t, sh("p", "true"))
	cfg.Close()
	if err := cfg.Command("p").Run(); !errors.Is(err, ruas.ErrInvalid) {
		t.Fatalf("Run on a closed config: %v", err)
	}
	if _, err := cfg.Preflight(context.Background()); !errors.Is(err, ruas.ErrInvalid) {
		t.Fatalf("Preflight on a closed config: %v", err)
	}
}

// The audit trail: OnAudit gets the start, end and check records; a panic
// in it is counted; the Globals' audit keys reach the configuration.
func TestOnAudit(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{AuditLog: log, AuditArgv: "none",
		AuditFacility: "local3"})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	if err := cfg.AddProject(ruas.ProjectSpec{Name: "p", WorkDir: dir,
		Command: []string{"/bin/sh", "-c", "exit 3"}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []ruas.AuditRecord
	cfg.OnAudit(func(r ruas.AuditRecord) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r)
	})
	if _, err := cfg.Preflight(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := cfg.Command("p", "secret-arg")
	var ee *ruas.ExitError
	if err := c.Run(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("run: %v", err)
	}
	mu.Lock()
	var events []string
	for _, r := range got {
		events = append(events, r.Event)
	}
	mu.Unlock()
	if strings.Join(events, ",") != "check,start,end" || got[1].Run != c.Process.RunID ||
		got[2].Run != c.Process.RunID || !strings.HasPrefix(got[2].Line, "end run="+c.Process.RunID) ||
		!strings.Contains(got[2].JSON, `"exit":3`) || !strings.Contains(got[2].JSON, `"lifetime":"none"`) {
		t.Fatalf("records: %+v", got)
	}
	data, err := os.ReadFile(log)
	if err != nil || strings.Count(string(data), "\n") != 2 || strings.Contains(string(data), "secret-arg") {
		t.Fatalf("the audit_log with audit_argv none: %q %v", data, err)
	}
	// A run keeps the function it started with: its end record goes there,
	// even after OnAudit changed it and the Config was closed meanwhile.
	var first []string
	cfg2, err := ruas.NewConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg2.AddProject(ruas.ProjectSpec{Name: "p", WorkDir: dir,
		Command: []string{"/bin/sh", "-c", "cat >/dev/null"}}); err != nil {
		t.Fatal(err)
	}
	cfg2.OnAudit(func(r ruas.AuditRecord) { mu.Lock(); first = append(first, r.Event); mu.Unlock() })
	c2 := cfg2.Command("p")
	stdin, err := c2.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c2.Start(); err != nil {
		t.Fatal(err)
	}
	cfg2.OnAudit(func(ruas.AuditRecord) { t.Error("a record went to the later function") })
	cfg2.Close()
	stdin.Close()
	if err := c2.Wait(); err != nil {
		t.Fatalf("wait: %v", err)
	}
	mu.Lock()
	if strings.Join(first, ",") != "start,end" {
		t.Fatalf("the run's records went to %v, want its own function's start,end", first)
	}
	mu.Unlock()
	cfg.OnAudit(func(ruas.AuditRecord) { panic("the bridge's log is down") })
	if err := cfg.Command("p").Run(); !errors.As(err, &ee) {
		t.Fatalf("run with a panicking OnAudit: %v", err)
	}
	if n := cfg.AuditFailures(); n != 2 {
		t.Fatalf("AuditFailures %d, want 2 (start and end)", n)
	}
	if _, err := ruas.NewConfigGlobals(ruas.Globals{AuditArgv: "some"}); !errors.Is(err, ruas.ErrConfig) {
		t.Fatalf("AuditArgv some: %v", err)
	}
	// A C int would take 2^32+1 as 1, and -1 as absent: both refused by the library.
	for _, n := range []int{1<<32 + 1, -1} {
		_, err := ruas.NewConfigGlobals(ruas.Globals{AuditArgvMax: n})
		if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), "audit_argv_max must be") {
			t.Fatalf("AuditArgvMax %d: %v", n, err)
		}
	}
}

// The limits of a run (open_files_max, file_size_max, core_dumps,
// wall_time_max) in Globals and ProjectSpec: taken, and what the library
// holds read back; the project's own win, NoWallTime over a global one too.
func TestLimitsTakenAndReadBack(t *testing.T) {
	dir := t.TempDir()
	yes, no := true, false
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{OpenFilesMax: 256, FileSizeMax: "67108864",
		CoreDumps: &yes, WallTimeMax: 600 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	specs := []ruas.ProjectSpec{
		{Name: "global", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}},
		{Name: "own", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}, OpenFilesMax: 4096,
			FileSizeMax: "64M", CoreDumps: &no, WallTimeMax: ruas.NoWallTime},
		{Name: "big", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}, FileSizeMax: "4611686018427387904",
			WallTimeMax: 31536000 * time.Second},
	}
	for _, s := range specs {
		if err := cfg.AddProject(s); err != nil {
			t.Fatalf("AddProject(%q): %v", s.Name, err)
		}
	}
	type held struct {
		wall  time.Duration
		open  int
		size  string
		dumps bool
	}
	want := map[string]held{"global": {600 * time.Second, 256, "67108864", true},
		"own": {ruas.NoWallTime, 4096, "67108864", false},
		"big": {31536000 * time.Second, 256, "4611686018427387904", true}}
	for name, w := range want {
		p, ok := cfg.Project(name)
		if !ok || p.CoreDumps == nil {
			t.Fatalf("%s: not found, or no CoreDumps", name)
		}
		if got := (held{p.WallTimeMax, p.OpenFilesMax, p.FileSizeMax, *p.CoreDumps}); got != w {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
	}
	// None given: none, and as the run gets it.
	plain, _ := legacy(t, sh("p", "true"))
	if p, _ := plain.Project("p"); p.WallTimeMax != ruas.NoWallTime || p.OpenFilesMax != 0 {
		t.Fatalf("no limits: WallTimeMax %v OpenFilesMax %d", p.WallTimeMax, p.OpenFilesMax)
	}
}

// RequireCommand (ruas.conf(5) require_command, issue 28): the global one
// is each project's default, a project's own wins, and Project reads it back.
func TestRequireCommandTakenAndReadBack(t *testing.T) {
	dir := t.TempDir()
	yes, no := true, false
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{RequireCommand: &yes})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	for _, s := range []ruas.ProjectSpec{
		{Name: "global", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}},
		{Name: "own", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}, RequireCommand: &no},
	} {
		if err := cfg.AddProject(s); err != nil {
			t.Fatalf("AddProject(%q): %v", s.Name, err)
		}
	}
	for name, want := range map[string]bool{"global": true, "own": false} {
		p, ok := cfg.Project(name)
		if !ok || p.RequireCommand == nil || *p.RequireCommand != want {
			t.Errorf("%s: RequireCommand %v, want %v", name, p.RequireCommand, want)
		}
	}
}

// The cgroup limits (memory_max, memory_swap_max, tasks_max, cpu_max,
// cgroup_parent) in Globals and ProjectSpec: taken, read back as the
// library holds them (bytes in decimal), the project's own winning; and
// refused with the library's messages where the file would be.
func TestCgroupLimitsTakenAndRefused(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{MemoryMax: "64M", TasksMax: 100, CPUMax: "0.5",
		CgroupParent: "/sys/fs/cgroup/bridge.service/runs"})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	specs := []ruas.ProjectSpec{
		{Name: "global", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}},
		{Name: "own", RunAsUser: "nobody", WorkDir: dir, Command: []string{"true"}, MemoryMax: "1G",
			MemorySwapMax: "16M", TasksMax: 20, CPUMax: "1.5"},
	}
	for _, s := range specs {
		if err := cfg.AddProject(s); err != nil {
			t.Fatalf("AddProject(%q): %v", s.Name, err)
		}
	}
	type held struct {
		mem, swap string
		tasks     int
		cpu       string
	}
	want := map[string]held{"global": {"67108864", "", 100, "0.5"},
		"own": {"1073741824", "16777216", 20, "1.5"}}
	for name, w := range want {
		p, _ := cfg.Project(name)
		if got := (held{p.MemoryMax, p.MemorySwapMax, p.TasksMax, p.CPUMax}); got != w {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
	}
	bad := []struct {
		spec ruas.ProjectSpec
		says string
	}{
		{ruas.ProjectSpec{MemoryMax: "1M"}, "memory_max must be a number of bytes from 8M"},
		{ruas.ProjectSpec{MemorySwapMax: "1M"}, "memory_swap_max needs memory_max"},
		{ruas.ProjectSpec{TasksMax: 7}, "tasks_max must be between 8"},
		{ruas.ProjectSpec{TasksMax: -1}, "tasks_max must be between 8"},
		{ruas.ProjectSpec{CPUMax: "half"}, "cpu_max must be a number of CPUs from 0.01 to 1024"},
	}
	// Without global limits: memory_swap_max alone then has no memory_max to go beside.
	none, err := ruas.NewConfigGlobals(ruas.Globals{})
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close()
	for i, b := range bad {
		s := b.spec
		s.Name, s.RunAsUser, s.WorkDir, s.Command = "bad"+strconv.Itoa(i), "nobody", dir, []string{"true"}
		err := none.AddProject(s)
		if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), b.says) {
			t.Errorf("%+v: %v, want ErrConfig saying %q", b.spec, err, b.says)
		}
	}
	if _, err := ruas.NewConfigGlobals(ruas.Globals{CgroupParent: "sys/fs/cgroup/x"}); !errors.Is(err, ruas.ErrConfig) ||
		!strings.Contains(err.Error(), "cgroup_parent") {
		t.Errorf("a relative cgroup_parent: %v", err)
	}
}

// Values the file would refuse are refused from code with the library's
// messages, in Globals and in a ProjectSpec alike; what C cannot be given
// as written (a Duration not whole seconds, an int beyond C's) is refused
// too, never rounded or wrapped into one it takes.
func TestLimitsRefused(t *testing.T) {
	cases := []struct {
		spec ruas.ProjectSpec // its limit fields, for Globals as well
		code ruas.Code
		says string
	}{
		{ruas.ProjectSpec{OpenFilesMax: 8}, ruas.ErrConfig, "open_files_max must be between 16 and 1048576"},
		{ruas.ProjectSpec{OpenFilesMax: 1048577}, ruas.ErrConfig, "open_files_max must be between 16 and 1048576"},
		// -1 is C's RUAS_UNSET: it must not pass as absent.
		{ruas.ProjectSpec{OpenFilesMax: -1}, ruas.ErrConfig, "open_files_max must be between 16 and 1048576"},
		// 2^32+64 wraps to 64 as a C int.
		{ruas.ProjectSpec{OpenFilesMax: 1<<32 + 64}, ruas.ErrConfig, "open_files_max must be between 16 and 1048576"},
		{ruas.ProjectSpec{FileSizeMax: "64X"}, ruas.ErrConfig, "file_size_max must be a number of bytes"},
		{ruas.ProjectSpec{FileSizeMax: "0"}, ruas.ErrConfig, "file_size_max must be a number of bytes"},
		{ruas.ProjectSpec{FileSizeMax: "4611686018427387905"}, ruas.ErrConfig, "file_size_max must be a number of bytes"},
		{ruas.ProjectSpec{FileSizeMax: "64\x00M"}, ruas.ErrInvalid, "FileSizeMax"},
		{ruas.ProjectSpec{WallTimeMax: 31536001 * time.Second}, ruas.ErrConfig, "wall_time_max must be between 0 (none) and 31536000 seconds"},
		{ruas.ProjectSpec{WallTimeMax: 1500 * time.Millisecond}, ruas.ErrInvalid, "wall_time_max must be a whole number of seconds"},
		{ruas.ProjectSpec{WallTimeMax: -2 * time.Second}, ruas.ErrInvalid, "wall_time_max must be a whole number of seconds"},
	}
	cfg, dir := legacy(t)
	for _, c := range cases {
		s := c.spec
		_, gerr := ruas.NewConfigGlobals(ruas.Globals{OpenFilesMax: s.OpenFilesMax,
			FileSizeMax: s.FileSizeMax, CoreDumps: s.CoreDumps, WallTimeMax: s.WallTimeMax})
		s.Name, s.WorkDir, s.Command = "p", dir, []string{"true"}
		perr := cfg.AddProject(s)
		for what, err := range map[string]error{"Globals": gerr, "ProjectSpec": perr} {
			var re *ruas.Error
			if !errors.As(err, &re) || re.Code != c.code || !strings.Contains(re.Message, c.says) {
				t.Errorf("%s %+v: %v, want %v saying %q", what, c.spec, err, c.code, c.says)
			}
		}
	}
	if n := len(cfg.Projects()); n != 0 {
		t.Fatalf("refused projects were added: %v", cfg.Projects())
	}
}

// Without RunAsUser a terminate reaches one pid, not the run's tree:
// wall_time_max is refused rather than kept in part (supervisor_test.go's
// limits keep it, with users).
func TestWallTimeMaxNeedsRunAsUser(t *testing.T) {
	cfg, err := ruas.NewConfig()
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	err = cfg.AddProject(ruas.ProjectSpec{Name: "slow", WorkDir: t.TempDir(), Command: []string{"true"},
		WallTimeMax: time.Second})
	if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), `project "slow": wall_time_max needs run_as_user`) {
		t.Fatalf("wall_time_max without RunAsUser: %v", err)
	}
}

// Credentials (issue 29) built in code: Globals.Credentials and
// ProjectSpec.Credentials, judged by the library with the file's
// messages; and Cmd.Credentials taken by a spawn.
func TestCredentialsTakenAndRefused(t *testing.T) {
	good := []ruas.Credential{
		{Name: "anthropic", FromEnv: "ANTHROPIC_API_KEY"},
		{Name: "github", FromCommand: []string{"gh", "auth", "token"}, TTL: 300 * time.Second},
		{Name: "deploy", FromFile: "/etc/ruas/secrets/deploy"},
	}
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{Credentials: good})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	work := t.TempDir()
	if err := cfg.AddProject(ruas.ProjectSpec{Name: "p", WorkDir: work, Command: []string{"true"}, RunAsUser: "nobody",
		Credentials: []ruas.Credential{{Name: "deploy", FromEnv: "DEPLOY"}}}); err != nil {
		t.Fatalf("a project's own credentials: %v", err)
	}
	bad := []struct {
		creds []ruas.Credential
		says  string
	}{
		{[]ruas.Credential{{Name: "Bad", FromEnv: "A"}}, `credentials: name "Bad" is invalid (pattern ^[a-z0-9][a-z0-9_.-]*$, at most 64)`},
		{[]ruas.Credential{{FromEnv: "A"}}, `credentials: a credential has no "name"`},
		{[]ruas.Credential{{Name: "x"}}, `credentials: "x" needs exactly one of from_env, from_command and from_file`},
		{[]ruas.Credential{{Name: "x", FromEnv: "A", FromFile: "/f"}}, `credentials: "x" needs exactly one of from_env, from_command and from_file`},
		{[]ruas.Credential{{Name: "x", FromEnv: "A", TTL: 5 * time.Second}}, `credentials: "x": ttl is only for a from_command credential`},
		{[]ruas.Credential{{Name: "x", FromCommand: []string{"t"}, TTL: 86401 * time.Second}}, `credentials: "x": ttl must be 0 to 86400 seconds`},
		{[]ruas.Credential{{Name: "x", FromFile: "rel"}}, `credentials: from_file "rel" must be an absolute path`},
		{[]ruas.Credential{{Name: "x", FromEnv: "A-B"}}, `credentials: from_env "A-B" is not a variable name ([A-Za-z_][A-Za-z0-9_]*)`},
		{[]ruas.Credential{{Name: "x", FromCommand: []string{}}}, `credentials: "x": from_command must not be empty`},
		{[]ruas.Credential{{Name: "x", FromCommand: []string{""}}}, `credentials: "x": from_command's program is empty`},
		{[]ruas.Credential{{Name: "x", FromEnv: "A"}, {Name: "x", FromEnv: "B"}}, `credentials: "x" is given twice`},
	}
	for i, b := range bad {
		_, err := ruas.NewConfigGlobals(ruas.Globals{Credentials: b.creds})
		if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), b.says) {
			t.Errorf("Globals %+v: %v, want %q", b.creds, err, b.says)
		}
		err = cfg.AddProject(ruas.ProjectSpec{Name: "q" + strconv.Itoa(i), WorkDir: work, Command: []string{"true"},
			RunAsUser: "nobody", Credentials: b.creds})
		if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), b.says) {
			t.Errorf("ProjectSpec %+v: %v, want %q", b.creds, err, b.says)
		}
	}
	// Refused before C: a TTL that is not whole seconds, a NUL.
	for _, c := range []ruas.Credential{{Name: "x", FromCommand: []string{"t"}, TTL: 1500 * time.Millisecond},
		{Name: "x", FromFile: "/a\x00b"}} {
		if _, err := ruas.NewConfigGlobals(ruas.Globals{Credentials: []ruas.Credential{c}}); !errors.Is(err, ruas.ErrInvalid) {
			t.Errorf("%+v: %v, want ErrInvalid", c, err)
		}
	}
	// The values stay with the supervisor: a project run as it is refused.
	err = cfg.AddProject(ruas.ProjectSpec{Name: "legacy", WorkDir: work, Command: []string{"true"}, Credentials: good[:1]})
	if !errors.Is(err, ruas.ErrConfig) || !strings.Contains(err.Error(), `project "legacy": credentials need run_as_user`) {
		t.Fatalf("credentials without RunAsUser: %v", err)
	}
	if got := cfg.Projects(); len(got) != 1 || got[0] != "p" {
		t.Fatalf("projects after the refusals: %q", got)
	}
}

func TestCredentialsFunctionTakenBySpawn(t *testing.T) {
	cfg, _ := legacy(t, sh("sh", "exit 0"))
	cmd := cfg.Command("sh")
	cmd.Credentials = func(project, name string) (string, bool, error) { return "", false, nil }
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if n, err := cmd.CredentialFailures(); n != 0 || err != nil {
		t.Fatalf("CredentialFailures: %d %v", n, err)
	}
}
