package pdf

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"syscall"

	"github.com/agentero/agentero/backend/subprocess"
)

// proc is the parent's handle on one worker process. One goroutine at a
// time uses it (the Extract that holds it, or Close); its reaper goroutine
// runs beside it until the process has exited.
type proc struct {
	cmd   *exec.Cmd
	pid   int
	in    *os.File // write end of the worker's stdin
	out   *os.File // read end of the worker's stdout
	files *os.File // the parent's end of the socket files are handed over (nil without one)
	enc   *gob.Encoder
	dec   *gob.Decoder

	served int // requests answered; see maxFilesPerWorker

	exited  chan struct{} // closed by reap once the process is reaped
	waitErr error         // the process's exit status; read only after exited
}

// startProc starts exe as a worker and waits for its hello. The start
// (compiling PDFium the first time) is not on any file's clock, but ctx can
// end it, and then the process is killed.
func startProc(ctx context.Context, exe string, env []string, log *slog.Logger) (*proc, string, error) {
	cmd, inW, outR, errR, files, err := spawn(exe, env)
	if err != nil {
		return nil, "", err
	}
	p := &proc{
		cmd:    cmd,
		pid:    cmd.Process.Pid,
		in:     inW,
		out:    outR,
		files:  files,
		enc:    gob.NewEncoder(inW),
		dec:    gob.NewDecoder(bufio.NewReader(outR)),
		exited: make(chan struct{}),
	}
	go p.reap(errR, log.With("pid", p.pid))

	var h hello
	release := p.killWhenDone(ctx)
	err = p.dec.Decode(&h)
	if killed := release(); killed {
		p.close()
		return nil, "", ctx.Err()
	}
	if err != nil {
		p.close()
		return nil, "", permanentError{fmt.Errorf("no hello from worker %s (%s; does its main or TestMain call pdf.ServeWorkerIfRequested first?): %w", exe, p.status(), err)}
	}
	if !h.Ready {
		p.close()
		return nil, "", permanentError{errors.New(h.Err)}
	}
	return p, h.Warning, nil
}

// permanentError marks a start failure that every later start would
// repeat: the process runs, but does not serve or cannot load PDFium.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// spawn starts exe with pipes as its stdin, stdout and stderr and, where
// descriptors can be passed, the socket files are handed over on, and
// returns the parent's ends of them.
func spawn(exe string, env []string) (cmd *exec.Cmd, in, out, stderr, files *os.File, err error) {
	var child, parent [4]*os.File
	defer func() {
		for i := range child {
			if child[i] != nil {
				child[i].Close() // the child has its own copy, or failed to start
			}
			if err != nil && parent[i] != nil {
				parent[i].Close()
			}
		}
	}()
	for i := range 3 {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, nil, nil, nil, nil, err
		}
		if i == 0 {
			child[i], parent[i] = r, w // the child reads its stdin
		} else {
			child[i], parent[i] = w, r
		}
	}
	if parent[3], child[3], err = fileSocket(); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	cmd = exec.Command(exe)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = child[0], child[1], child[2]
	if child[3] != nil {
		cmd.ExtraFiles = []*os.File{child[3]} // the worker's filesFD
	}
	if err := subprocess.Start(cmd); err != nil {
		return nil, nil, nil, nil, nil, err
	}
	return cmd, parent[0], parent[1], parent[2], parent[3], nil
}

// reap logs the worker's stderr at debug level until the process closes
// it, then reaps the process and closes p.exited.
func (p *proc) reap(stderr *os.File, log *slog.Logger) {
	defer close(p.exited)
	r := bufio.NewReaderSize(stderr, 4096)
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 {
			log.Debug("pdf worker", "stderr", string(trimNewline(line)))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break // EOF: the process has exited
		}
	}
	stderr.Close()
	p.waitErr = p.cmd.Wait()
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}

// extract hands f to the worker and has it answer req about it. When ctx
// ends first, the worker is killed and the error is ctx's; when the worker
// dies on the file, the error wraps ErrDamaged. Either way p is closed then.
func (p *proc) extract(ctx context.Context, req request, f *os.File) (*Document, error) {
	release := p.killWhenDone(ctx)
	p.served++
	var r reply
	err := sendFile(p.files, f, &req)
	if err == nil {
		err = p.enc.Encode(req)
	}
	if err == nil {
		err = p.dec.Decode(&r)
	}
	if killed := release(); killed {
		p.close()
		return nil, ctx.Err()
	}
	if err != nil {
		p.close()
		if p.killed() {
			return nil, fmt.Errorf("the PDF reader was killed while reading this file (%s): %w: %w", p.status(), ErrDamaged, errKilled)
		}
		return nil, fmt.Errorf("the PDF reader crashed on this file (%s): %w", p.status(), ErrDamaged)
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	return r.Doc, nil
}

// killWhenDone kills the process if ctx ends before release is called.
// release reports whether the kill happened, and returns only once it has.
func (p *proc) killWhenDone(ctx context.Context) (release func() (killed bool)) {
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(done)
		p.kill()
	})
	return func() bool {
		if stop() {
			return false
		}
		<-done
		return true
	}
}

// kill sends SIGKILL (TerminateProcess on Windows). It is safe after the
// process has been reaped: os.Process does not signal a reaped process.
func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
}

// hasExited reports whether the process is gone (an idle worker can be
// killed from outside).
func (p *proc) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// errKilled marks a worker that SIGKILL ended while it read a file, a
// signal we did not send (we kill only through ctx, and then report ctx's
// error): the kernel's out-of-memory killer, which may have picked the
// worker for a file's sake or for another program's, or a user. The file
// is tried once more before it is called damaged (see Extractor.run).
var errKilled = errors.New("killed from outside")

// killed reports whether SIGKILL ended the process; call it after close.
func (p *proc) killed() bool {
	var ee *exec.ExitError
	if !errors.As(p.waitErr, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}

// status describes how the process ended; call it after close.
func (p *proc) status() string {
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// close kills the process, waits until it is reaped and releases the
// pipes. It is called once, by the holder of p.
func (p *proc) close() {
	p.kill()
	<-p.exited
	p.in.Close()
	p.out.Close()
	if p.files != nil {
		p.files.Close()
	}
}
