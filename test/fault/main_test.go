//go:build linux

// Package fault_test holds Agentero's fault suites: the real program killed
// with SIGKILL while it indexes or answers, and its state files written on a
// full disk. Each suite runs the binary as a user's shell does and judges
// what it left on disk, the way the next start of the app finds it.
package fault_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/backend/vault"
	"github.com/agentero/agentero/internal/corpustest"
	"github.com/agentero/agentero/internal/proctest"
)

// binary is the real agentero program, built once for the package.
var binary string

// binaryEnv hands the built binary to the test binary run again in a user
// namespace (see inNamespace), which then need not build it again.
const binaryEnv = "AGENTERO_FAULT_BINARY"

func TestMain(m *testing.M) {
	// The full-disk suite runs the app's backend in this process, which
	// reads PDFs in workers that re-execute it.
	pdf.ServeWorkerIfRequested()
	if binary = os.Getenv(binaryEnv); binary != "" {
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "agentero-fault-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "agentero")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", binary, "../..")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("build agentero: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// inNamespace runs test again in a child process that is root of new user
// and mount namespaces (unshare): there it may mount file systems, which
// vanish with it. env marks the child. It reports false when this system
// does not let a user make such namespaces.
func inNamespace(t *testing.T, test string, env ...string) bool {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		corpustest.Unavailable(t, "unshare is not installed (util-linux; scripts/deps.sh installs it): %v", err)
	}
	ns := []string{"--user", "--map-root-user", "--mount"}
	if out, err := exec.Command(unshare, append(ns, "true")...).CombinedOutput(); err != nil {
		t.Logf("this system does not let a user make namespaces: %v: %s", err, out)
		return false
	}
	cmd := exec.Command(unshare, append(ns, os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")...)
	cmd.Env = append(os.Environ(), append(env, binaryEnv+"="+binary)...)
	out, err := cmd.CombinedOutput()
	t.Logf("in a namespace of its own:\n%s", out)
	if err != nil {
		t.Fatalf("the test failed in its namespace: %v", err)
	}
	return true
}

// home is a user's configuration and cache folders for the binary, apart
// from the machine's.
type home struct{ dir string }

func newHome(t *testing.T) home { return home{dir: t.TempDir()} }

// env is the environment the binary runs with under h.
func (h home) env() []string {
	return append(os.Environ(), "HOME="+h.dir, "XDG_CONFIG_HOME="+filepath.Join(h.dir, "config"),
		"XDG_CACHE_HOME="+filepath.Join(h.dir, "cache"))
}

// command is the binary with args, in a process group of its own (so that
// the group is the app and the PDF workers it starts), under h.
func (h home) command(args ...string) *exec.Cmd {
	cmd := exec.Command(binary, args...)
	cmd.Env = h.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd
}

// run runs the binary to its end and returns what it printed and its exit
// status.
func (h home) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := h.command(args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// treeHash fingerprints every entry of the vault outside .agentero: its
// type, permissions and, for files, the SHA-256 of its bytes. Two equal
// results mean Agentero changed nothing of the user's.
func treeHash(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if rel == vault.StateDir {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := info.Mode().String()
		if info.Mode().IsRegular() {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			h := sha256.New()
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
			sum += " " + hex.EncodeToString(h.Sum(nil))
		}
		out[rel] = sum
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// running lists the live processes of the binary under test (the app, its
// built-in agent, its MCP servers, its PDF workers), by pid.
func running() []int {
	exes, _ := filepath.Glob("/proc/[0-9]*/exe")
	var out []int
	for _, p := range exes {
		if exe, err := os.Readlink(p); err == nil && exe == binary {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			if proctest.Alive(pid) {
				out = append(out, pid)
			}
		}
	}
	return out
}

// noneRunning fails the test if a process of the binary under test is
// still running after wait (a signal takes a moment to be delivered, an
// input a moment to close), and kills what is left.
func noneRunning(t *testing.T, wait time.Duration) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		left := running()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes of agentero are left running: %v", left)
			for _, pid := range left {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// children lists the live processes whose parent is pid.
func children(pid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		// After the name: state ppid ...
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if ppid, _ := strconv.Atoi(f[1]); ppid == pid {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			out = append(out, child)
		}
	}
	return out
}
