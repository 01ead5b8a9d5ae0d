// SPDX-License-Identifier: ISC

// startspawn - tests/consumer/startspawn.c's supervisor in Go, through the
// binding (bindings/go): how a start went, as a bridge would tell its user,
// the agent's stderr thrown away.
//
//	startspawn CONF PROJECT WORK_DIR [ARG...]
//
// WORK_DIR "-" is the project's own; an ARG "@big:N" is N bytes of 'x'. On
// a failed Start it prints
//
//	error code=CODE stage=STAGE errno=ERRNO file=FILE
//	message=MESSAGE
//	go: ErrStart=BOOL ErrTooLong=BOOL ErrNotExist=BOOL ErrPermission=BOOL stage=NAME
//
// (STAGE the number of ruas.h, NAME the binding's) and exits 3; otherwise it
// waits and prints "exit=N".
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"ruas.dev/ruas"
)

var stageNumbers = map[string]int{"sudo": 1, "work_dir": 2, "exec": 3, "login": 4, "helper": 5}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: startspawn CONF PROJECT WORK_DIR [ARG...]")
		os.Exit(2)
	}
	cfg, err := ruas.LoadConfig(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "startspawn:", err)
		os.Exit(2)
	}
	defer cfg.Close()
	var args []string
	for _, a := range os.Args[4:] {
		if strings.HasPrefix(a, "@big:") {
			size, _ := strconv.Atoi(strings.TrimPrefix(a, "@big:"))
			a = strings.Repeat("x", size)
		}
		args = append(args, a)
	}
	cmd := cfg.Command(os.Args[2], args...)
	cmd.Stdout = os.Stdout
	cmd.PTY = ruas.PTYNone
	if os.Args[3] != "-" {
		cmd.Dir = os.Args[3]
	}
	if err := cmd.Start(); err != nil {
		var e *ruas.Error
		if !errors.As(err, &e) {
			fmt.Fprintln(os.Stderr, "startspawn: not a *ruas.Error:", err)
			os.Exit(2)
		}
		fmt.Printf("error code=%d stage=%d errno=%d file=%s\nmessage=%s\n", int(e.Code),
			stageNumbers[e.Stage], int(e.Errno), e.File, e.Message)
		fmt.Printf("go: ErrStart=%t ErrTooLong=%t ErrNotExist=%t ErrPermission=%t stage=%s\n",
			errors.Is(err, ruas.ErrStart), errors.Is(err, ruas.ErrTooLong),
			errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission), e.Stage)
		os.Exit(3)
	}
	code := 0
	if err := cmd.Wait(); err != nil {
		var ee *ruas.ExitError
		if !errors.As(err, &ee) {
			fmt.Fprintln(os.Stderr, "startspawn:", err)
			os.Exit(2)
		}
		code = ee.ExitCode()
	}
	fmt.Printf("exit=%d\n", code)
}
