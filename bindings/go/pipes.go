// SPDX-License-Identifier: ISC

// pipes.go - Output, CombinedOutput and the pipes of Cmd, as exec.Cmd has them.

package ruas

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sync"
)

// Output runs the agent and returns its standard output. When Stderr is
// nil, an *ExitError holds (part of) the agent's standard error.
func (c *Cmd) Output() ([]byte, error) {
	if c.Stdout != nil {
		return nil, errors.New("ruas: Stdout already set")
	}
	var stdout bytes.Buffer
	c.Stdout = &stdout
	var saved *tailSaver
	if c.Stderr == nil {
		saved = &tailSaver{max: 64 << 10}
		c.Stderr = saved
	}
	err := c.Run()
	var ee *ExitError
	if saved != nil && errors.As(err, &ee) {
		ee.Stderr = saved.bytes()
	}
	return stdout.Bytes(), err
}

// CombinedOutput runs the agent and returns its standard output and
// standard error together.
func (c *Cmd) CombinedOutput() ([]byte, error) {
	if c.Stdout != nil {
		return nil, errors.New("ruas: Stdout already set")
	}
	if c.Stderr != nil {
		return nil, errors.New("ruas: Stderr already set")
	}
	var b bytes.Buffer
	c.Stdout, c.Stderr = &b, &b
	err := c.Run()
	return b.Bytes(), err
}

// StdinPipe is a pipe to the agent's standard input, closed by Wait once
// the agent has ended; close it yourself to send end of file.
func (c *Cmd) StdinPipe() (io.WriteCloser, error) {
	if c.Stdin != nil {
		return nil, errors.New("ruas: Stdin already set")
	}
	if c.Process != nil {
		return nil, errors.New("ruas: StdinPipe after process started")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	c.Stdin = pr
	c.closeAfterStart = append(c.closeAfterStart, pr)
	wc := &closeOnce{File: pw}
	c.closeAfterWait = append(c.closeAfterWait, wc)
	return wc, nil
}

// StdoutPipe is a pipe from the agent's standard output, closed by Wait:
// read it to the end before calling Wait.
func (c *Cmd) StdoutPipe() (io.ReadCloser, error) {
	if c.Stdout != nil {
		return nil, errors.New("ruas: Stdout already set")
	}
	return c.readPipe(&c.Stdout)
}

// StderrPipe is StdoutPipe for standard error.
func (c *Cmd) StderrPipe() (io.ReadCloser, error) {
	if c.Stderr != nil {
		return nil, errors.New("ruas: Stderr already set")
	}
	return c.readPipe(&c.Stderr)
}

func (c *Cmd) readPipe(w *io.Writer) (io.ReadCloser, error) {
	if c.Process != nil {
		return nil, errors.New("ruas: pipe after process started")
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	*w = pw
	c.closeAfterStart = append(c.closeAfterStart, pw)
	c.closeAfterWait = append(c.closeAfterWait, pr)
	return pr, nil
}

type closeOnce struct {
	*os.File
	once sync.Once
	err  error
}

func (c *closeOnce) Close() error {
	c.once.Do(func() { c.err = c.File.Close() })
	return c.err
}

// tailSaver keeps the first and the last max/2 bytes written to it.
type tailSaver struct {
	max     int
	head    []byte
	tail    []byte
	skipped int64
}

func (s *tailSaver) Write(p []byte) (int, error) {
	n := len(p)
	half := s.max / 2
	if room := half - len(s.head); room > 0 {
		k := room
		if k > len(p) {
			k = len(p)
		}
		s.head = append(s.head, p[:k]...)
		p = p[k:]
	}
	s.tail = append(s.tail, p...)
	if over := len(s.tail) - half; over > 0 {
		s.skipped += int64(over)
		s.tail = append(s.tail[:0], s.tail[over:]...)
	}
	return n, nil
}

func (s *tailSaver) bytes() []byte {
	out := append([]byte{}, s.head...)
	if s.skipped > 0 {
		out = append(out, "\n... omitted bytes ...\n"...)
	}
	return append(out, s.tail...)
}
