package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentero/agentero/backend/index"
	"github.com/agentero/agentero/backend/library"
	"github.com/agentero/agentero/backend/vault"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// App is the object the frontend calls. Its methods are thin: the work is
// in the backend packages.
type App struct {
	ctx  context.Context // Wails' startup context; needed by every runtime call
	log  *slog.Logger
	want string // vault asked for on the command line

	mu     sync.Mutex
	lib    *library.Library
	cancel context.CancelFunc // stops the open vault's indexing and watching
	done   chan struct{}
}

// NewApp returns an App that opens vaultDir (or the last vault, else the
// example vault) when the window starts.
func NewApp(vaultDir string, log *slog.Logger) *App {
	return &App{want: vaultDir, log: log}
}

func (a *App) startup(ctx context.Context) {
	a.ctx = ctx
	dir := a.want
	if dir == "" {
		dir = lastVault()
	}
	if dir == "" {
		dir = exampleVault()
	}
	if dir == "" {
		a.log.Warn("no vault to open: start with --vault DIR")
		return
	}
	if err := a.open(dir); err != nil {
		a.log.Error("open vault", "dir", dir, "err", err)
	}
}

func (a *App) shutdown(context.Context) { a.closeVault() }

// open switches the app to the vault at dir: the index opens at once, then
// indexing and watching run in the background.
func (a *App) open(dir string) error {
	lib, err := library.Open(dir, library.Options{
		Logger: a.log,
		Emit:   func(name string, payload any) { runtime.EventsEmit(a.ctx, name, payload) },
	})
	if err != nil {
		return err
	}
	a.closeVault()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	a.mu.Lock()
	a.lib, a.cancel, a.done = lib, cancel, done
	a.mu.Unlock()
	rememberVault(lib.Root())
	go func() {
		defer close(done)
		if _, err := lib.Sync(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("index vault", "err", err)
		}
		if err := lib.Watch(ctx); err != nil && ctx.Err() == nil {
			a.log.Error("watch vault", "err", err)
		}
	}()
	return nil
}

func (a *App) closeVault() {
	a.mu.Lock()
	lib, cancel, done := a.lib, a.cancel, a.done
	a.lib, a.cancel, a.done = nil, nil, nil
	a.mu.Unlock()
	if lib == nil {
		return
	}
	cancel()
	<-done
	if err := lib.Close(); err != nil {
		a.log.Warn("close vault", "err", err)
	}
}

func (a *App) library() (*library.Library, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.lib == nil {
		return nil, errors.New("no vault is open")
	}
	return a.lib, nil
}

// Vault reports the open vault's path and watch state.
func (a *App) Vault() library.State {
	lib, err := a.library()
	if err != nil {
		return library.State{WatchMode: "off"}
	}
	return lib.State()
}

// Library lists the papers of the open vault with their index health.
func (a *App) Library() ([]index.Paper, error) {
	lib, err := a.library()
	if err != nil {
		return []index.Paper{}, nil
	}
	return lib.DB().Papers(a.ctx)
}

// Search searches the whole open vault.
func (a *App) Search(query string, limit int) ([]index.Hit, error) {
	lib, err := a.library()
	if err != nil {
		return nil, err
	}
	return lib.DB().Search(a.ctx, query, limit)
}

// Reindex rescans the open vault now.
func (a *App) Reindex() error {
	lib, err := a.library()
	if err != nil {
		return err
	}
	go func() {
		if _, err := lib.Sync(context.Background()); err != nil {
			a.log.Error("reindex", "err", err)
		}
	}()
	return nil
}

// ChooseVault asks for a folder and opens it; "" when the user cancelled.
func (a *App) ChooseVault() (string, error) {
	dir, err := runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{Title: "Open a vault"})
	if err != nil || dir == "" {
		return "", err
	}
	if err := a.open(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// vaultFiles serves the open vault's files at /vault/<path> for the PDF
// viewer. Only files inside the vault are served: no traversal, no
// symlinks leaving it, nothing under .agentero.
func (a *App) vaultFiles() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, ok := strings.CutPrefix(r.URL.Path, "/vault/")
		lib, err := a.library()
		if !ok || err != nil {
			http.NotFound(w, r)
			return
		}
		abs, err := vault.Resolve(lib.Root(), rel)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				http.Error(w, "this file is no longer in the vault", http.StatusNotFound)
				return
			}
			http.Error(w, "not a file of this vault", http.StatusForbidden)
			return
		}
		if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, abs)
	})
}

// lastVault reads the vault opened last, from the user's config directory.
func lastVault() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, "agentero", "last-vault"))
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(b))
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return ""
	}
	return p
}

func rememberVault(root string) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Join(dir, "agentero"), 0o755); err != nil {
		return
	}
	_ = os.WriteFile(filepath.Join(dir, "agentero", "last-vault"), []byte(root+"\n"), 0o644)
}

// exampleVault finds examples/vault beside the executable or the working
// directory, for a first start from a checkout.
func exampleVault() string {
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		d := filepath.Dir(exe)
		candidates = append(candidates, filepath.Join(d, "examples", "vault"), filepath.Join(d, "..", "..", "examples", "vault"))
	}
	if wd, err := os.Getwd(); err == nil {
		candidates = append(candidates, filepath.Join(wd, "examples", "vault"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.IsDir() {
			return c
		}
	}
	return ""
}
