package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary play this executable's part in a Landlock
// start (RunConfined), as agentero does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == ConfinedFlag {
		if err := RunConfined(os.Args[2:]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// TestConfinement: a program run confined reads what its spec lets it
// (a file in a folder it may read, its working folder) and nothing else:
// not a file beside the allowed one, not the home folder's key. The same
// reads succeed unconfined, so a refusal is the sandbox's.
func TestConfinement(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	allowed := t.TempDir()
	secret := t.TempDir()
	work := t.TempDir()
	os.WriteFile(filepath.Join(allowed, "ok.txt"), []byte("allowed\n"), 0o644)
	os.WriteFile(filepath.Join(secret, "id_rsa"), []byte("secret\n"), 0o600)
	os.WriteFile(filepath.Join(work, "w.txt"), []byte("work\n"), 0o644)
	spec := Spec{Read: []string{allowed}, Dir: work, Env: []string{"PATH=" + os.Getenv("PATH")}}
	for _, kind := range []Kind{Bubblewrap, Landlock, None} {
		t.Run(string(kind), func(t *testing.T) {
			if kind != None {
				if r := Choose(string(kind)); r.Kind != kind {
					if os.Getenv("AGENTERO_TEST_STRICT") != "" {
						t.Fatalf("%s is unavailable: %s", kind, r.Why)
					}
					t.Skipf("%s is unavailable: %s", kind, r.Why)
				}
			}
			read := func(path string) (string, error) {
				cmd, err := Command(kind, spec, os.Args[0], cat, []string{path})
				if err != nil {
					t.Fatal(err)
				}
				out, err := cmd.CombinedOutput()
				return strings.TrimSpace(string(out)), err
			}
			if got, err := read(filepath.Join(allowed, "ok.txt")); err != nil || got != "allowed" {
				t.Errorf("the allowed file: %q, %v", got, err)
			}
			if got, err := read(filepath.Join(work, "w.txt")); err != nil || got != "work" {
				t.Errorf("the working folder's file: %q, %v", got, err)
			}
			got, err := read(filepath.Join(secret, "id_rsa"))
			if kind == None {
				if err != nil || got != "secret" {
					t.Errorf("unconfined, the key should be read: %q, %v", got, err)
				}
			} else if err == nil || strings.Contains(got, "secret") {
				t.Errorf("confined by %s, the key was read: %q", kind, got)
			}
		})
	}
}

// TestArgsOrder: bubblewrap mounts parents before children, so that no
// bind hides another, and the working folder is bound writable.
func TestArgsOrder(t *testing.T) {
	args := bubblewrapArgs(Spec{Read: []string{"/x/a/b", "/x/a"}, Write: []string{"/x/a/b/c"}, Dir: "/w"})
	var binds []string
	for i, a := range args {
		if (a == "--ro-bind-try" || a == "--bind-try") && i+1 < len(args) && strings.HasPrefix(args[i+1], "/x") || a == "--bind-try" && args[i+1] == "/w" {
			binds = append(binds, a+" "+args[i+1])
		}
	}
	want := []string{"--bind-try /w", "--ro-bind-try /x/a", "--ro-bind-try /x/a/b", "--bind-try /x/a/b/c"}
	if !slices.Equal(binds, want) {
		t.Errorf("binds %v, want %v", binds, want)
	}
	if !slices.Contains(args, "--unshare-pid") || !slices.Contains(args, "--die-with-parent") {
		t.Errorf("args %v lack the pid namespace or the tie to the parent", args)
	}
}

// BenchmarkStart is what confinement adds to starting a program (the
// agent's cold start pays it once): /bin/true run directly, in bubblewrap,
// and under Landlock (this binary re-executed to restrict itself first).
func BenchmarkStart(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true")
	}
	spec := Spec{Dir: b.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}}
	var direct time.Duration
	for _, kind := range []Kind{None, Bubblewrap, Landlock} {
		if kind != None && Choose(string(kind)).Kind != kind {
			b.Logf("%s: unavailable here", kind)
			continue
		}
		const n = 20
		start := time.Now()
		for range n {
			cmd, err := Command(kind, spec, os.Args[0], truePath, nil)
			if err != nil {
				b.Fatal(err)
			}
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%s: %v: %s", kind, err, out)
			}
		}
		per := time.Since(start) / n
		if kind == None {
			direct = per
		}
		b.Logf("%-10s %8.2f ms a start (%+.2f ms over a direct start)", kind, float64(per.Microseconds())/1000, float64((per-direct).Microseconds())/1000)
	}
}
