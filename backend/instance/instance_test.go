package instance

import (
	"errors"
	"net"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func TestSecondLaunchHandsOver(t *testing.T) {
	dir := t.TempDir()
	first, err := Acquire(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	got := make(chan Message, 1)
	first.Serve(func(m Message) { got <- m })

	link := []string{"agentero://open?vault=/v&ref=papers/a&page=2"}
	if s, err := Acquire(dir, link); !errors.Is(err, ErrHanded) {
		if s != nil {
			s.Close()
		}
		t.Fatalf("the second launch was not handed over: %v", err)
	}
	select {
	case m := <-got:
		if !reflect.DeepEqual(m.Args, link) || m.Dir == "" {
			t.Fatalf("the first instance got %+v", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the first instance never got the link")
	}

	// Another folder is another instance.
	other, err := Acquire(t.TempDir(), nil)
	if err != nil {
		t.Fatalf("another configuration folder: %v", err)
	}
	other.Close()
}

func TestStaleSocketIsReplaced(t *testing.T) {
	dir := t.TempDir()
	ln, err := net.Listen("unix", filepath.Join(dir, SocketName))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // an instance that died: the socket file stays, nobody listens
	s, err := Acquire(dir, nil)
	if err != nil {
		t.Fatalf("a stale socket blocked the launch: %v", err)
	}
	s.Close()
	// Closed, the next launch is the first again.
	s, err = Acquire(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}
