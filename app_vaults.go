package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/agentero/agentero/backend/workspace"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// RecentVaults lists the vaults opened before, newest first, the open one
// marked.
func (a *App) RecentVaults() []workspace.RecentVault {
	list := a.cfg.RecentVaults()
	if ws, err := a.current(); err == nil {
		for i := range list {
			list[i].Current = sameDir(list[i].Path, ws.Root())
		}
	}
	return list
}

// OpenVault switches to the vault at path (a recent one).
func (a *App) OpenVault(path string) error { return a.open(path) }

// ForgetVault removes a vault from the recent ones.
func (a *App) ForgetVault(path string) error { return a.cfg.ForgetVault(path) }

// NewVault asks for an empty folder, makes it a vault and opens it; "" when
// the user cancelled. A folder that holds other things is refused.
func (a *App) NewVault() (string, error) {
	dir, err := runtime.OpenDirectoryDialog(a.ctx, runtime.OpenDialogOptions{
		Title:                "Choose an empty folder for the new vault",
		CanCreateDirectories: true,
	})
	if err != nil || dir == "" {
		return "", err
	}
	return a.CreateVault(dir)
}

// CreateVault makes the folder dir (empty or missing) a vault and opens it.
func (a *App) CreateVault(dir string) (string, error) {
	if err := workspace.CreateVault(dir); err != nil {
		return "", err
	}
	if err := a.open(dir); err != nil {
		return "", err
	}
	return dir, nil
}

// ExampleVault is where the example vault would be copied to, or "" when
// no example ships with this copy of Agentero (the first screen offers
// "Open the example vault" only when there is one).
func (a *App) ExampleVault() string {
	if workspace.ExampleSource(a.cfg.Executable()) == "" {
		return ""
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, workspace.ExampleName)
}

// OpenExampleVault copies the example vault into the user's home (once:
// an earlier copy is reopened as it is) and opens it.
func (a *App) OpenExampleVault() (string, error) {
	dst := a.ExampleVault()
	if dst == "" {
		return "", errors.New("no example vault ships with this copy of Agentero")
	}
	dir, err := workspace.CopyExample(workspace.ExampleSource(a.cfg.Executable()), dst)
	if err != nil {
		return "", err
	}
	if err := a.open(dir); err != nil {
		return "", err
	}
	return dir, nil
}
