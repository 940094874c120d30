package acp

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// tailBuffer keeps the last max bytes written to it (an agent's stderr).
type tailBuffer struct {
	max int

	mu  sync.Mutex // guards buf; held only to append or copy it
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// sniffer passes the agent's output through to the ACP connection and,
// until stop, keeps the first line that cannot be ACP (one that does not
// start with '{'): a program that prints a usage text or a banner instead
// of answering initialize is then named for what it is. After stop it only
// passes bytes through.
type sniffer struct {
	r io.Reader

	// mu guards the fields below; Read holds it only while it scans what
	// it just read, never while it reads.
	mu      sync.Mutex
	line    []byte // the start of the line being read, at most junkMax bytes
	junk    string // the first line that is not JSON, trimmed; "" = none yet
	stopped bool
}

// junkMax is how much of a line that is not JSON is kept to show.
const junkMax = 120

func (s *sniffer) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped || s.junk != "" {
		return n, err
	}
	for _, c := range b[:n] {
		if c != '\n' {
			if len(s.line) < junkMax {
				s.line = append(s.line, c)
			}
			continue
		}
		if t := bytes.TrimSpace(s.line); len(t) > 0 && t[0] != '{' {
			s.junk = printable(t)
			break
		}
		s.line = s.line[:0]
	}
	return n, err
}

// stop ends the sniffing: the agent has answered initialize.
func (s *sniffer) stop() {
	s.mu.Lock()
	s.stopped, s.line = true, nil
	s.mu.Unlock()
}

// firstJunk is the first line the agent printed that is not JSON, or "".
// A line still being written counts once the agent has stopped writing
// (the caller asks after the agent failed).
func (s *sniffer) firstJunk() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.junk == "" {
		if t := bytes.TrimSpace(s.line); len(t) > 0 && t[0] != '{' {
			return printable(t)
		}
	}
	return s.junk
}

// printable makes a snippet of an agent's output fit to show in a message:
// valid UTF-8 (invalid bytes, such as a character cut in two, are
// dropped), control characters as spaces, runs of spaces collapsed.
func printable(b []byte) string {
	s := strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(string(b), ""))
	return strings.Join(strings.Fields(s), " ")
}

func lastLine(s string) string {
	lines := splitLines(s)
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] != "" {
			return lines[i]
		}
	}
	return ""
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, trimCR(s[start:i]))
			start = i + 1
		}
	}
	return append(out, trimCR(s[start:]))
}

func trimCR(s string) string {
	if len(s) > 0 && s[len(s)-1] == '\r' {
		return s[:len(s)-1]
	}
	return s
}
