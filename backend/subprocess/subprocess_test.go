package subprocess

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestMain makes the test binary list its open files when started as the
// child of TestStartInheritsNothing.
func TestMain(m *testing.M) {
	if os.Getenv("SUBPROCESS_LIST_FDS") == "1" {
		names, _ := os.ReadDir("/proc/self/fd")
		for _, n := range names {
			target, _ := os.Readlink("/proc/self/fd/" + n.Name())
			os.Stdout.WriteString(n.Name() + " " + target + "\n")
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestStartInheritsNothing: a pipe opened without close-on-exec, as a C
// library opens its files, is not inherited by a child started with Start,
// while a file handed in ExtraFiles is, as fd 3.
func TestStartInheritsNothing(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil { // no O_CLOEXEC
		t.Fatal(err)
	}
	defer syscall.Close(p[0])
	defer syscall.Close(p[1])
	handed, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer handed.Close()

	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "SUBPROCESS_LIST_FDS=1")
	cmd.ExtraFiles = []*os.File{handed}
	var out strings.Builder
	cmd.Stdout = &out
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	pipe, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(p[1]))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), pipe) {
		t.Errorf("the child holds the pipe %s:\n%s", pipe, out.String())
	}
	if !strings.Contains(out.String(), "3 "+os.DevNull) {
		t.Errorf("the child does not hold the handed file as fd 3:\n%s", out.String())
	}
	// Without Start the pipe is inherited: the test can fail. (Start has
	// marked it by now, so it is made again.)
	syscall.Close(p[0])
	syscall.Close(p[1])
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	if pipe, err = os.Readlink("/proc/self/fd/" + strconv.Itoa(p[1])); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "SUBPROCESS_LIST_FDS=1")
	out.Reset()
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), pipe) {
		t.Errorf("a plain exec.Cmd's child does not hold the pipe %s either: the test shows nothing\n%s", pipe, out.String())
	}
}
