// SPDX-License-Identifier: ISC

// supervisor_test.go - a small chat-bridge-like supervisor over real
// users: three agents at once, a turn interrupted with SIGINT, sessions
// cancelled mid-turn, 10 MiB of output, an agent that fails, a spawn
// refused by preflight, a project built in code from hostile strings, the
// limits of a run given in code, and credentials given in code and by a
// Credentials function.
// It needs the sandbox of tests/integration/go.sh (root, users, sudoers,
// the staged install), which runs each subtest on the sudo backend as a
// supervisor user and on the pam backend as root; elsewhere it skips.

package ruas_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ruas.dev/ruas"
)

func itEnv(t *testing.T, name string) string {
	v := os.Getenv(name)
	if v == "" {
		t.Skipf("SKIP: %s is not set: the supervisor tests need root, real users and sudo; "+
			"tests/integration/go.sh runs them in its sandbox", name)
	}
	return v
}

// session is one agent driven as a chat bridge drives it.
type session struct {
	t     *testing.T
	cmd   *ruas.Cmd
	in    io.WriteCloser
	out   *bufio.Scanner
	errb  bytes.Buffer
	mu    sync.Mutex
	calls int
}

// start preflights nothing (the caller has); it starts project's agent.
func start(t *testing.T, cmd *ruas.Cmd) *session {
	t.Helper()
	s := &session{t: t, cmd: cmd}
	var err error
	if s.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &s.errb
	s.out = bufio.NewScanner(r)
	if err := cmd.Start(); err != nil {
		t.Fatalf("Start %s: %v", cmd, err)
	}
	return s
}

func (s *session) send(id int, prompt string) {
	line, _ := json.Marshal(map[string]interface{}{"id": id, "prompt": prompt})
	if _, err := s.in.Write(append(line, '\n')); err != nil {
		s.t.Fatalf("%s: write: %v", s.cmd, err)
	}
}

// next is the agent's next reply.
func (s *session) next() map[string]interface{} {
	if !s.out.Scan() {
		s.t.Fatalf("%s: its stdout ended (%v); stderr: %s", s.cmd, s.out.Err(), s.errb.String())
	}
	var m map[string]interface{}
	if err := json.Unmarshal(s.out.Bytes(), &m); err != nil {
		s.t.Fatalf("%s: not JSON: %q", s.cmd, s.out.Text())
	}
	return m
}

// turn is the replies up to the one with done.
func (s *session) turn() []map[string]interface{} {
	var rs []map[string]interface{}
	for {
		m := s.next()
		rs = append(rs, m)
		if m["done"] == true {
			return rs
		}
	}
}

func (s *session) close() error {
	s.in.Close()
	for s.out.Scan() {
	}
	return s.cmd.Wait()
}

// left is what runs as user now, as pgrep sees it.
func left(user string) string {
	out, _ := exec.Command("pgrep", "-a", "-u", user).Output()
	return strings.TrimSpace(string(out))
}

func loadChecked(t *testing.T, env string) (*ruas.Config, *ruas.Report) {
	cfg, err := ruas.LoadConfig(itEnv(t, env))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cfg.Close() })
	rep, err := cfg.Preflight(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return cfg, rep
}

func TestSupervisor(t *testing.T) {
	t.Run("three", supThree)
	t.Run("interrupt", supInterrupt)
	t.Run("cancel", supCancel)
	t.Run("stubborn", supStubborn)
	t.Run("big", supBig)
	t.Run("fail", supFail)
	t.Run("refused", supRefused)
	t.Run("hostile", supHostile)
	t.Run("env", supEnv)
	t.Run("limits", supLimits)
	t.Run("credentials", supCredentials)
}

// Credentials (issue 29) through the binding: the agent, as t1, runs
// ruas-credential for credentials given in code (a global FromEnv from
// the Cmd's Env, a project's own FromFile replacing a global of the same
// name) and for one the Cmd's Credentials function gives; a name the
// function has none of is refused as unknown, one it fails on as a failed
// source. The function is asked only for names no configured source has,
// and no value reaches the agent's environment.
func supCredentials(t *testing.T) {
	work, cred := itEnv(t, "RUAS_GO_IT_WORK"), itEnv(t, "RUAS_GO_IT_CRED")
	rnd := func(prefix string) string {
		b := make([]byte, 8)
		if _, err := io.ReadFull(rand.Reader, b); err != nil {
			t.Fatal(err)
		}
		return prefix + hex.EncodeToString(b)
	}
	token, deploy, given := rnd("sk-env-"), rnd("deploy-"), rnd("cb-")
	f, err := os.CreateTemp("", "ruas-deploy.") // 0600, the supervisor's
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(deploy + "\n"); err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{
		Helper:         itEnv(t, "RUAS_GO_IT_HELPER"),
		SessionHelper:  itEnv(t, "RUAS_GO_IT_SESSION"),
		Backend:        itEnv(t, "RUAS_GO_IT_BACKEND"),
		TerminateGrace: time.Second,
		Credentials: []ruas.Credential{{Name: "token", FromEnv: "BRIDGE_TOKEN"},
			{Name: "deploy", FromEnv: "UNSET_HERE"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	script := `for n in "$@"; do "$0" "$n"; echo "rc=$?"; done; env`
	if err := cfg.AddProject(ruas.ProjectSpec{Name: "c", WorkDir: filepath.Join(work, "t1"), RunAsUser: "t1",
		Command:     []string{"/bin/sh", "-c", script, cred},
		Credentials: []ruas.Credential{{Name: "deploy", FromFile: f.Name()}}}); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []string
	sealed := errors.New("the vault is sealed")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := cfg.CommandContext(ctx, "c", "token", "deploy", "from-callback", "nosuch", "broken")
	cmd.Env = []string{"BRIDGE_TOKEN=" + token, "PATH=/usr/bin:/bin"}
	cmd.Credentials = func(project, name string) (string, bool, error) {
		mu.Lock()
		calls = append(calls, project+"/"+name)
		mu.Unlock()
		switch name {
		case "from-callback":
			return given, true, nil
		case "broken":
			return "", false, sealed
		}
		return "", false, nil
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the run: %v; stderr: %s", err, stderr.String())
	}
	lines := strings.Split(string(out), "\n")
	want := []string{token, "rc=0", deploy, "rc=0", given, "rc=0", "rc=1", "rc=1"}
	if len(lines) < len(want) || strings.Join(lines[:len(want)], " ") != strings.Join(want, " ") {
		t.Fatalf("ruas-credential's output %q, want %q first; stderr: %s", lines, want, stderr.String())
	}
	for _, say := range []string{
		`ruas-credential: nosuch: unknown credential "nosuch": project "c" has none by that name`,
		`ruas-credential: broken: credential "broken" could not be had: its source failed`,
	} {
		if !strings.Contains(stderr.String(), say) {
			t.Errorf("stderr %q lacks %q", stderr.String(), say)
		}
	}
	if strings.Contains(stderr.String(), "vault is sealed") {
		t.Errorf("the function's error reached the agent: %q", stderr.String())
	}
	mu.Lock()
	got := strings.Join(calls, " ")
	mu.Unlock()
	if got != "c/from-callback c/nosuch c/broken" {
		t.Errorf("the function was asked %q, want only the names no configured source has", got)
	}
	if n, err := cmd.CredentialFailures(); n != 1 || !errors.Is(err, sealed) {
		t.Errorf("CredentialFailures: %d %v", n, err)
	}
	env := strings.Join(lines[len(want):], "\n")
	if !regexp.MustCompile(`(?m)^RUAS_CREDENTIALS=@ruas-credentials-[0-9a-f]{32}$`).MatchString(env) {
		t.Errorf("the agent's environment names no socket: %q", env)
	}
	for _, v := range []string{token, deploy, given} {
		if strings.Contains(env, v) {
			t.Errorf("a value in the agent's environment: %q", env)
		}
	}
}

// The limits of a run given in code reach the target's: ruas-exec sets
// RLIMIT_NOFILE and RLIMIT_FSIZE, soft and hard, and RLIMIT_CORE 0 unless
// CoreDumps (the agent's own python3 reads them); and wall_time_max ends an
// agent that ignores SIGTERM too (SIGKILL after the grace), as LimitTime.
func supLimits(t *testing.T) {
	work, agent := itEnv(t, "RUAS_GO_IT_WORK"), itEnv(t, "RUAS_GO_IT_AGENT")
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{
		Helper:         itEnv(t, "RUAS_GO_IT_HELPER"),
		SessionHelper:  itEnv(t, "RUAS_GO_IT_SESSION"),
		Backend:        itEnv(t, "RUAS_GO_IT_BACKEND"),
		TerminateGrace: time.Second,
		OpenFilesMax:   64,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	probe := []string{"python3", "-c", `import resource as r
print(*[v for k in ("NOFILE", "FSIZE", "CORE") for v in r.getrlimit(getattr(r, "RLIMIT_" + k))])`}
	w1 := filepath.Join(work, "t1")
	yes, no := true, false
	for _, spec := range []ruas.ProjectSpec{
		{Name: "on", WorkDir: w1, RunAsUser: "t1", Command: probe, FileSizeMax: "1M", CoreDumps: &yes},
		{Name: "off", WorkDir: w1, RunAsUser: "t1", Command: probe, OpenFilesMax: 128,
			FileSizeMax: "4096", CoreDumps: &no},
		{Name: "slow", WorkDir: w1, RunAsUser: "t1", Command: []string{"python3", agent, "stubborn"},
			WallTimeMax: time.Second},
		{Name: "long", WorkDir: w1, RunAsUser: "t1", Command: []string{"python3", agent},
			WallTimeMax: time.Minute},
	} {
		if err := cfg.AddProject(spec); err != nil {
			t.Fatalf("AddProject(%q): %v", spec.Name, err)
		}
	}
	if rep, err := cfg.Preflight(context.Background()); err != nil || rep.Fatal {
		t.Fatalf("preflight: %v %+v", err, rep)
	}
	out, err := cfg.Command("on").Output()
	on := strings.Fields(string(out))
	// CoreDumps leaves the hard limit as the run got it. sudo's own
	// rlimit_core is 0 unless sudoers says otherwise (sudoers(5)): only
	// PAM's shows it.
	pam := itEnv(t, "RUAS_GO_IT_BACKEND") == "pam"
	if err != nil || len(on) != 6 || strings.Join(on[:4], " ") != "64 64 1048576 1048576" || (pam && on[5] == "0") {
		t.Fatalf("the global open_files_max, file_size_max 1M, core_dumps: %q %v", out, err)
	}
	out, err = cfg.Command("off").Output()
	if err != nil || strings.TrimSpace(string(out)) != "128 128 4096 4096 0 0" {
		t.Fatalf("the project's own limits: %q %v", out, err)
	}
	s := start(t, cfg.Command("slow"))
	s.send(1, "hello")
	s.turn()
	began := time.Now()
	err = s.cmd.Wait() // stdin left open: only wall_time_max ends it
	var ee *ruas.ExitError
	if !errors.As(err, &ee) || ee.Signal() != syscall.SIGKILL || ee.Limit() != ruas.LimitTime ||
		time.Since(began) > 15*time.Second {
		t.Fatalf("wall_time_max of an agent that ignores SIGTERM: %v, limit %q after %v; stderr: %s",
			err, s.cmd.ProcessState.Limit(), time.Since(began), s.errb.String())
	}
	// The supervisor's own terminate before the deadline is no limit's.
	s = start(t, cfg.Command("long"))
	s.send(1, "hello")
	s.turn()
	if err := s.cmd.Process.Terminate(); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Wait(); !errors.As(err, &ee) || ee.Signal() != syscall.SIGTERM || ee.Limit() != ruas.LimitNone {
		t.Fatalf("terminated before its wall_time_max: %v, limit %q", err, s.cmd.ProcessState.Limit())
	}
}

// exec.Cmd's habit with run_as_user: Env = append(os.Environ(), ...) starts,
// the allowlisted value crosses (the last of a name winning) and the rest is
// left out; SetEnv refuses a name outside the allowlist, naming it.
func supEnv(t *testing.T) {
	work, agent := itEnv(t, "RUAS_GO_IT_WORK"), itEnv(t, "RUAS_GO_IT_AGENT")
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{
		Helper:        itEnv(t, "RUAS_GO_IT_HELPER"),
		SessionHelper: itEnv(t, "RUAS_GO_IT_SESSION"),
		Backend:       itEnv(t, "RUAS_GO_IT_BACKEND"),
		EnvAllowlist:  []string{"BRIDGE_TOKEN"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	spec := ruas.ProjectSpec{Name: "e", WorkDir: filepath.Join(work, "t1"), RunAsUser: "t1",
		Command: []string{"python3", agent, "argv"}}
	if err := cfg.AddProject(spec); err != nil {
		t.Fatal(err)
	}
	c := cfg.Command("e")
	c.Env = append(os.Environ(), "PATH=/nowhere", "LD_PRELOAD=/evil.so", "BRIDGE_TOKEN=first",
		"BRIDGE_TOKEN=last")
	out, err := c.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || lines[len(lines)-1] != hex.EncodeToString([]byte("last")) {
		t.Fatalf("append(os.Environ(), ...): %v %q", err, out)
	}
	c = cfg.Command("e")
	c.SetEnv = []string{"PATH=/nowhere"}
	if _, err := c.Output(); !errors.Is(err, ruas.ErrInvalid) || !strings.Contains(err.Error(), "PATH") {
		t.Fatalf("SetEnv PATH: %v, want ErrInvalid naming PATH", err)
	}
}

// Three agents at once, each as its own user, each answering only its own.
func supThree(t *testing.T) {
	cfg, rep := loadChecked(t, "RUAS_GO_IT_CONF")
	if rep.Fatal {
		t.Fatalf("preflight of the good projects is fatal: %+v", rep)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for i, user := range []string{"t1", "t2", "t3"} {
		wg.Add(1)
		go func(project, user string) {
			defer wg.Done()
			s := start(t, cfg.Command(project, "echo"))
			for id := 1; id <= 20; id++ {
				s.send(id, fmt.Sprintf("hello %d from %s", id, project))
				r := s.turn()[0]
				want := fmt.Sprintf("%s:hello %d from %s", user, id, project)
				if r["user"] != user || r["reply"] != want || r["id"] != float64(id) {
					errs <- fmt.Errorf("%s: reply %v, want %q", project, r, want)
					return
				}
			}
			if err := s.close(); err != nil {
				errs <- fmt.Errorf("%s: %v", project, err)
			}
		}(fmt.Sprintf("a%d", i+1), user)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// SIGINT interrupts a turn; the agent goes on with the next.
func supInterrupt(t *testing.T) {
	cfg, _ := loadChecked(t, "RUAS_GO_IT_CONF")
	s := start(t, cfg.Command("a1", "echo"))
	s.send(1, "slow")
	if r := s.next(); r["status"] != "working" {
		t.Fatalf("the slow turn: %v", r)
	}
	begin := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if r := s.turn(); r[len(r)-1]["interrupted"] != true || time.Since(begin) > 10*time.Second {
		t.Fatalf("after SIGINT: %v after %v", r, time.Since(begin))
	}
	s.send(2, "still there?")
	if r := s.turn(); r[0]["reply"] != "t1:still there?" {
		t.Fatalf("after the interruption: %v", r)
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
}

// cancelled runs project in mode, starts a slow turn with a child of its
// own and cancels the context: Wait fails, the agent got sig, and nothing
// of t1 is left.
func cancelled(t *testing.T, project string, sig syscall.Signal, within time.Duration) {
	cfg, _ := loadChecked(t, "RUAS_GO_IT_CONF")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := start(t, cfg.CommandContext(ctx, project, map[string]string{"a1": "echo", "stubborn": "stubborn"}[project]))
	s.send(1, "slow tree")
	if r := s.next(); r["status"] != "working" {
		t.Fatalf("the slow turn: %v", r)
	}
	begin := time.Now()
	cancel()
	err := s.close()
	var ee *ruas.ExitError
	if !errors.As(err, &ee) || ee.Signal() != sig || ee.ExitCode() != -1 {
		t.Fatalf("Wait after cancel: %v (%v), want the agent ended by %v", err, s.cmd.ProcessState, sig)
	}
	if ws := s.cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != sig {
		t.Fatalf("Sys: %v", ws)
	}
	if d := time.Since(begin); d > within {
		t.Fatalf("the cancel took %v (at most %v)", d, within)
	}
	if l := left("t1"); l != "" {
		t.Fatalf("left of t1 after Wait: %s", l)
	}
}

func supCancel(t *testing.T)   { cancelled(t, "a1", syscall.SIGTERM, 5*time.Second) }
func supStubborn(t *testing.T) { cancelled(t, "stubborn", syscall.SIGKILL, 8*time.Second) }

func supBig(t *testing.T) {
	cfg, _ := loadChecked(t, "RUAS_GO_IT_CONF")
	out, err := cfg.Command("a1", "big").Output()
	want := sha256.Sum256(bytes.Repeat([]byte("0123456789abcdef\n"), (10<<20)/17+1)[:10<<20])
	if err != nil || len(out) != 10<<20 || sha256.Sum256(out) != want {
		t.Fatalf("10 MiB: %d bytes, %v", len(out), err)
	}
}

func supFail(t *testing.T) {
	cfg, _ := loadChecked(t, "RUAS_GO_IT_CONF")
	_, err := cfg.Command("a1", "fail").Output()
	var ee *ruas.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 || string(ee.Stderr) != "agent failed on purpose\n" {
		t.Fatalf("a failing agent: %v", err)
	}
}

// A target with passwordless sudo of its own: preflight is fatal, naming
// it, and the supervisor starts nothing.
func supRefused(t *testing.T) {
	cfg, rep := loadChecked(t, "RUAS_GO_IT_ESC_CONF")
	p := rep.Project("bad")
	if !rep.Fatal || p == nil || !p.Fatal() {
		t.Fatalf("preflight of bad: %+v", rep)
	}
	found := false
	for _, it := range p.Items {
		t.Logf("%s %s: %s", it.Severity, it.Check, strings.TrimSpace(it.Text))
		found = found || (it.Check == "escalation" && it.Severity == ruas.SeverityFatal &&
			strings.HasPrefix(it.Text, `ERROR: target user "esc1" can run passwordless sudo.`))
	}
	if !found {
		t.Fatal("no fatal escalation item naming esc1")
	}
	_ = cfg
}

// A project built in code from hostile strings: what is not a plain value
// is refused naming it; what is taken arrives byte for byte.
func supHostile(t *testing.T) {
	work, agent := itEnv(t, "RUAS_GO_IT_WORK"), itEnv(t, "RUAS_GO_IT_AGENT")
	cfg, err := ruas.NewConfigGlobals(ruas.Globals{
		Name:           `built "in"; code`,
		Helper:         itEnv(t, "RUAS_GO_IT_HELPER"),
		SessionHelper:  itEnv(t, "RUAS_GO_IT_SESSION"),
		Backend:        itEnv(t, "RUAS_GO_IT_BACKEND"),
		TerminateGrace: time.Second,
		EnvAllowlist:   []string{"BRIDGE_TOKEN"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	inject := `t1"; run_as_user = "root`
	w1 := filepath.Join(work, "t1")
	cmd := []string{"python3", agent, "argv"}
	for _, spec := range []ruas.ProjectSpec{
		{Name: inject, WorkDir: w1, Command: cmd, RunAsUser: "t1"},
		{Name: "h", WorkDir: w1, Command: cmd, RunAsUser: inject},
		{Name: "h", WorkDir: w1, Command: cmd, RunAsUser: "t1\nroot"},
		{Name: "h", WorkDir: w1, Command: cmd, RunAsUser: "root"},
		{Name: "h\n", WorkDir: w1, Command: cmd, RunAsUser: "t1"},
	} {
		err := cfg.AddProject(spec)
		var re *ruas.Error
		if !errors.As(err, &re) || re.Code != ruas.ErrConfig {
			t.Fatalf("%+v: %v, want ErrConfig", spec, err)
		}
		t.Logf("refused: %s", re.Message)
	}
	if len(cfg.Projects()) != 0 {
		t.Fatalf("refused projects were added: %v", cfg.Projects())
	}
	hostile := []string{inject, "two\nlines\n", `'$(id)' "; \`, "", "-", "tab\there", "\xff\x01"}
	if err := cfg.AddProject(ruas.ProjectSpec{Name: "h", WorkDir: w1, RunAsUser: "t1", Command: append(cmd, hostile...)}); err != nil {
		t.Fatal(err)
	}
	rep, err := cfg.Preflight(context.Background())
	if err != nil || rep.Fatal {
		t.Fatalf("preflight of the project built in code: %v %+v", err, rep)
	}
	c := cfg.Command("h", hostile...)
	c.Dir = itEnv(t, "RUAS_GO_IT_ODD")
	c.Env = []string{"BRIDGE_TOKEN=tok\"; en\nx"}
	out, err := c.Output()
	var want []string
	for _, a := range append(append([]string{}, hostile...), hostile...) {
		want = append(want, hex.EncodeToString([]byte(a)))
	}
	want = append(want, hex.EncodeToString([]byte(filepath.Join(w1, c.Dir))), hex.EncodeToString([]byte("tok\"; en\nx")))
	if err != nil || string(out) != strings.Join(want, "\n")+"\n" {
		t.Fatalf("hostile arguments, Dir and Env: %v\n got %q\nwant %q", err, out, strings.Join(want, "\n")+"\n")
	}
}

// TestMain says so on stderr when the supervisor tests cannot run here,
// so that a plain `go test ./...` does not pass them over in silence.
func TestMain(m *testing.M) {
	if os.Getenv("RUAS_GO_IT_CONF") == "" {
		fmt.Fprintln(os.Stderr, "SKIP: TestSupervisor (real users, sudo and PAM) runs only in the sandbox of tests/integration/go.sh, as root")
	}
	os.Exit(m.Run())
}
