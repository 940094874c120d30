package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/events"
	"github.com/agentero/agentero/backend/instance"
	"github.com/agentero/agentero/backend/userdir"
	"github.com/agentero/agentero/backend/workspace"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// LinkFollowed is the event a link handed over by a later launch arrives as.
const LinkFollowed = "link:followed"

// LinkResult is a followed link: its target, or why it was refused (a
// sentence for the user).
type LinkResult struct {
	Link   string                `json:"link"`
	Target *workspace.LinkTarget `json:"target"`
	Error  string                `json:"error"`
	// Code is the error's code (events.Code*: invalid, not-found, …).
	Code string `json:"code,omitempty"`
	// UnknownVault says the link was not followed because its vault is
	// none of the user's vaults (Error says which folder): the window asks
	// the user, and follows it with OpenLinkVault when they agree.
	UnknownVault bool `json:"unknownVault"`
}

// links holds the link the app was launched with until the window takes it.
type links struct {
	started chan struct{} // closed once the window started
	// mu guards first and trusted; it is held only to read or take them.
	mu      sync.Mutex
	first   string // the launch's link, "" once taken or when none
	trusted bool   // the launch said --trust-vault: the link's vault may be opened though unknown
}

// launchLink reads the command line's link (a positional agentero:// argument)
// and, when its vault can be opened, makes it the vault to open. A vault
// that is none of the user's vaults is opened only when trusted (the
// command line's --trust-vault); launchLink returns why it is not, for the
// command line to refuse the launch with.
func (a *App) launchLink(raw string, trusted bool) error {
	a.links = &links{started: make(chan struct{}), first: raw, trusted: trusted}
	if raw == "" {
		return nil
	}
	l, err := applink.Parse(raw)
	if err != nil || applink.CheckVault(l) != nil {
		return nil // the window says why when it takes the link
	}
	if !trusted {
		if err := applink.CheckKnown(l, a.knownVaults()); err != nil {
			return fmt.Errorf("%w; to open it, run again with --trust-vault", err)
		}
	}
	a.want = l.Vault
	return nil
}

// knownVaults are the user's vaults: the one open and those opened before.
func (a *App) knownVaults() []string {
	var out []string
	if ws, err := a.current(); err == nil {
		out = append(out, ws.Root())
	}
	if a.want != "" {
		out = append(out, a.want)
	}
	for _, v := range a.cfg.RecentVaults() {
		out = append(out, v.Path)
	}
	return out
}

// startupWithLinks is Wails' OnStartup: the app starts, then links handed
// over by later launches may be followed.
func (a *App) startupWithLinks(ctx context.Context) {
	a.startup(ctx)
	close(a.links.started)
}

// acquireInstance makes this the one running app for the user's
// configuration, or hands args to the running one (instance.ErrHanded).
func (a *App) acquireInstance(args []string) (*instance.Server, error) {
	dir, err := userdir.Folder(a.cfg.Dir())
	if err != nil {
		return nil, err
	}
	srv, err := instance.Acquire(dir, args)
	if err != nil {
		return nil, err
	}
	srv.Serve(a.secondLaunch)
	return srv, nil
}

// VaultOpened and its payload are the events package's (generated for the UI).
const VaultOpened = events.VaultOpened

type VaultOpenedEvent = events.VaultOpenedEvent

// secondLaunch raises the window and does what a later launch asked: opens
// its --vault, follows its agentero:// link.
func (a *App) secondLaunch(m instance.Message) {
	<-a.links.started
	runtime.WindowUnminimise(a.ctx)
	runtime.WindowShow(a.ctx)
	fs := flag.NewFlagSet("agentero", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("vault", "", "")
	trusted := fs.Bool("trust-vault", false, "")
	if err := fs.Parse(m.Args); err != nil {
		return
	}
	if *dir != "" {
		p := *dir
		if !filepath.IsAbs(p) {
			p = filepath.Join(m.Dir, p)
		}
		ev := VaultOpenedEvent{Path: p}
		if err := a.open(p); err != nil {
			ev.Error = fmt.Sprintf("Couldn’t open %s: %v", p, err)
		}
		a.emit(VaultOpened, ev)
	}
	for _, arg := range fs.Args() {
		if applink.IsLink(arg) {
			a.emit(LinkFollowed, a.followLink(arg, *trusted))
		}
	}
}

// TakeLink returns the link the app was launched with, followed (once; nil
// when there was none). The window calls it when it starts.
func (a *App) TakeLink() *LinkResult {
	if a.links == nil {
		return nil
	}
	a.links.mu.Lock()
	raw, trusted := a.links.first, a.links.trusted
	a.links.first = ""
	a.links.mu.Unlock()
	if raw == "" {
		return nil
	}
	r := a.followLink(raw, trusted)
	if r.Target != nil {
		r.Target.VaultChanged = false // the window loads the vault it starts on anyway
	}
	return &r
}

// FollowLink follows an agentero:// link from inside the app (an exported
// answer pasted back, a test): as if a later launch had handed it over. A
// link to a folder that is none of the user's vaults is not followed: its
// result says UnknownVault, for the window to ask.
func (a *App) FollowLink(raw string) LinkResult { return a.followLink(raw, false) }

// OpenLinkVault follows a link whose vault is none of the user's vaults,
// once the user agreed to open that folder.
func (a *App) OpenLinkVault(raw string) LinkResult { return a.followLink(raw, true) }

// followLink checks raw strictly, switches to its vault if need be (one of
// the user's vaults, or any when trusted) and finds its paper and page.
func (a *App) followLink(raw string, trusted bool) LinkResult {
	res := LinkResult{Link: raw}
	t, err := a.resolveLink(raw, trusted)
	if err != nil {
		res.Error, res.Code = err.Error(), workspace.Code(err)
		res.UnknownVault = errors.Is(err, applink.ErrUnknownVault)
		a.log.Warn("link refused", "link", raw, "err", err)
		return res
	}
	res.Target = t
	return res
}

// resolveLink checks the link (workspace.CheckLink), opens its vault when
// it is not the one open, and finds its paper and page there
// (Workspace.FollowLink).
func (a *App) resolveLink(raw string, trusted bool) (*workspace.LinkTarget, error) {
	l, err := workspace.CheckLink(raw, a.knownVaults(), trusted)
	if err != nil {
		return nil, err
	}
	changed := false
	ws, err := a.current()
	if err != nil || !sameDir(ws.Root(), l.Vault) {
		if err := a.open(l.Vault); err != nil {
			return nil, fmt.Errorf("the vault %s could not be opened: %w", l.Vault, err)
		}
		changed = true
		if ws, err = a.current(); err != nil {
			return nil, err
		}
	}
	t, err := ws.FollowLink(context.Background(), l, 0)
	if err != nil {
		return nil, err
	}
	t.VaultChanged = changed
	return t, nil
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
