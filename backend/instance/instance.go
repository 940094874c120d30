// Package instance keeps one running app per user configuration: the first
// launch listens on a Unix socket in the user's private configuration
// folder; a later launch hands its arguments (an agentero:// link, a
// vault) to it and exits. It needs no D-Bus session, and a test that gives
// each app its own configuration folder gets independent apps.
package instance

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// SocketName is the socket's file name in the configuration folder.
const SocketName = "instance.sock"

// handTimeout bounds a hand-over to a running app that does not answer.
const handTimeout = 5 * time.Second

// maxMessage caps what a second launch may send.
const maxMessage = 64 << 10

// Message is what a second launch hands over.
type Message struct {
	Args []string `json:"args"`
	Dir  string   `json:"dir"` // its working directory
}

// Server is the first instance's listener.
type Server struct {
	ln   net.Listener
	path string
	once sync.Once
	wg   sync.WaitGroup
}

// ErrHanded is returned by Acquire when the arguments went to the running app.
var ErrHanded = errors.New("handed to the running Agentero")

// Acquire makes this process the one instance for the folder dir (a
// private folder the caller made: the configuration folder), or hands args
// to the instance already running there and returns ErrHanded. A socket
// left by an instance that died is replaced.
func Acquire(dir string, args []string) (*Server, error) {
	path := filepath.Join(dir, SocketName)
	for attempt := 0; attempt < 3; attempt++ {
		ln, err := net.Listen("unix", path)
		if err == nil {
			return &Server{ln: ln, path: path}, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("cannot listen for other launches at %s: %w", path, err)
		}
		err = hand(path, args)
		if err == nil {
			return nil, ErrHanded
		}
		if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("the running Agentero did not take the launch: %w", err)
		}
		// Nobody listens: a stale socket. Only a socket is removed.
		if st, err := os.Lstat(path); err == nil && st.Mode()&os.ModeSocket != 0 {
			os.Remove(path)
		}
	}
	return nil, fmt.Errorf("cannot take over %s", path)
}

// hand sends args to the instance listening at path and waits for it to
// acknowledge them.
func hand(path string, args []string) error {
	c, err := net.DialTimeout("unix", path, handTimeout)
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(handTimeout))
	wd, _ := os.Getwd()
	if err := json.NewEncoder(c).Encode(Message{Args: args, Dir: wd}); err != nil {
		return err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if line != "ok\n" {
		return fmt.Errorf("unexpected answer %q", line)
	}
	return nil
}

// Serve calls handle with each later launch's message, one at a time,
// until Close. It returns at once.
func (s *Server) Serve(handle func(Message)) {
	// mu is held while handle runs, so that launches are handled one at a
	// time though each connection is read by a goroutine of its own.
	var mu sync.Mutex
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := s.ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer c.Close()
				c.SetDeadline(time.Now().Add(handTimeout))
				var m Message
				if err := json.NewDecoder(bufio.NewReader(ioLimit(c))).Decode(&m); err != nil {
					return
				}
				c.Write([]byte("ok\n"))
				mu.Lock()
				defer mu.Unlock()
				handle(m)
			}()
		}
	}()
}

// Close stops listening and removes the socket.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		err = s.ln.Close()
		s.wg.Wait()
	})
	return err
}
