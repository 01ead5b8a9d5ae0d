// SPDX-License-Identifier: ISC

// bridge: a minimal chat bridge over ruas. It reads prompts from its
// stdin, one a line, hands each to a long-running agent as
// {"id":N,"prompt":"..."} on the agent's stdin, and prints the agent's
// newline-delimited JSON replies until the one with "done":true. The
// agent runs as its project's run_as_user; nothing starts when preflight
// finds a fatal problem. SIGINT interrupts the agent's turn; SIGTERM ends
// the session (the agent's whole tree, with the project's grace).
//
//	bridge -config /etc/ruas/ruas.conf -project myproject [args...]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"ruas.dev/ruas"
)

func main() {
	conf := flag.String("config", "/etc/ruas/ruas.conf", "the ruas configuration")
	project := flag.String("project", "", "the project whose agent answers")
	flag.Parse()
	if *project == "" {
		fail(2, "usage: bridge -config FILE -project NAME [ARGS...]")
	}
	cfg, err := ruas.LoadConfig(*conf)
	if err != nil {
		fail(1, err.Error())
	}
	defer cfg.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	rep, err := cfg.Preflight(ctx)
	if err != nil {
		fail(1, err.Error())
	}
	if p := rep.Project(*project); p != nil && p.Fatal() {
		for _, it := range p.Items {
			fmt.Fprint(os.Stderr, it.Text)
		}
		fail(1, fmt.Sprintf("bridge: project %q fails preflight: not started", *project))
	}

	cmd := cfg.CommandContext(ctx, *project, flag.Args()...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fail(1, err.Error())
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fail(1, err.Error())
	}
	if err := cmd.Start(); err != nil {
		fail(1, err.Error())
	}
	ints := make(chan os.Signal, 1)
	signal.Notify(ints, syscall.SIGINT)
	go func() {
		for range ints {
			cmd.Process.Signal(syscall.SIGINT) // interrupts the turn, not the bridge
		}
	}()

	replies := bufio.NewScanner(out)
	replies.Buffer(make([]byte, 64<<10), 64<<20)
	prompts := bufio.NewScanner(os.Stdin)
	prompts.Buffer(make([]byte, 64<<10), 16<<20)
	for id := 1; prompts.Scan(); id++ {
		line, _ := json.Marshal(map[string]interface{}{"id": id, "prompt": prompts.Text()})
		if _, err := in.Write(append(line, '\n')); err != nil {
			break // the agent has gone: Wait says why
		}
		if !turn(replies) {
			break
		}
	}
	in.Close()
	for replies.Scan() { // what the agent says after its last turn
		fmt.Println(replies.Text())
	}
	err = cmd.Wait()
	var ee *ruas.ExitError
	switch {
	case errors.As(err, &ee):
		fail(3, fmt.Sprintf("bridge: agent ended: %v", ee))
	case err != nil:
		fail(3, fmt.Sprintf("bridge: %v", err))
	}
}

// turn prints the replies of one turn; false when the agent's stdout ended.
func turn(replies *bufio.Scanner) bool {
	for replies.Scan() {
		fmt.Println(replies.Text())
		var r struct {
			Done bool `json:"done"`
		}
		if json.Unmarshal(replies.Bytes(), &r) == nil && r.Done {
			return true
		}
	}
	return false
}

func fail(code int, msg string) {
	fmt.Fprintln(os.Stderr, msg)
	os.Exit(code)
}
