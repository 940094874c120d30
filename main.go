// Command agentero is the Agentero desktop app and its command line
// (SPEC §12): with no command it opens the window on a vault.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"

	"github.com/agentero/agentero/backend/applink"
	"github.com/agentero/agentero/backend/instance"
	"github.com/agentero/agentero/backend/pdf"
	"github.com/agentero/agentero/cli"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

//go:embed all:frontend/dist
var assets embed.FS

//go:embed build/appicon.png
var icon []byte

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	pdf.ServeWorkerIfRequested()
	if len(os.Args) > 1 {
		switch name := os.Args[1]; {
		case name == "version" || name == "--version":
			fmt.Println("agentero", version)
			return
		case cli.Handles(name):
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
			stop()
			os.Exit(code)
		}
	}
	fs := flag.NewFlagSet("agentero", flag.ContinueOnError)
	vaultDir := fs.String("vault", "", "vault folder to open (default: the last one, else the example vault)")
	trustVault := fs.Bool("trust-vault", false, "open a link's vault even when it is none of your vaults")
	if err := fs.Parse(os.Args[1:]); err != nil || fs.NArg() > 1 || (fs.NArg() == 1 && !applink.IsLink(fs.Arg(0))) {
		fmt.Fprintln(os.Stderr, cli.Usage)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if lib := pdf.NativePDFium(); lib != "" {
		log.Info("PDF text is read with the native PDFium", "pdfium", lib)
	} else {
		log.Info("PDF text is read with PDFium compiled to WebAssembly (no native libpdfium.so beside the program)")
	}
	app := NewApp(*vaultDir, log)
	unknown := app.launchLink(fs.Arg(0), *trustVault)
	// One app per user: a later launch (a clicked agentero:// link) hands
	// its arguments to the running one and exits.
	srv, err := app.acquireInstance(os.Args[1:])
	switch {
	case errors.Is(err, instance.ErrHanded):
		log.Info("handed to the running Agentero")
		return
	case err != nil:
		log.Warn("other launches will open their own window", "err", err)
	default:
		defer srv.Close()
	}
	if unknown != nil {
		// No running app to ask the user in (one would have been handed
		// the link): a link may come from anyone, so say it and stop.
		fmt.Fprintln(os.Stderr, "agentero: "+unknown.Error())
		if srv != nil {
			srv.Close()
		}
		os.Exit(2)
	}
	if msg := noDisplay(); msg != "" {
		// GTK would panic with a stack trace; say it in a sentence.
		fmt.Fprintln(os.Stderr, "agentero: "+msg)
		if srv != nil {
			srv.Close()
		}
		os.Exit(1)
	}
	err = wails.Run(&options.App{
		Title:     "Agentero",
		Width:     1280,
		Height:    820,
		MinWidth:  760,
		MinHeight: 480,
		AssetServer: &assetserver.Options{
			Assets:  assets,
			Handler: app.vaultFiles(),
		},
		// PDFs dropped on the window reach the UI as paths (OnFileDrop),
		// which adds them; the page takes every drag, so the webview never
		// navigates to a drop (lib/backend.ts onFileDrop). Not
		// DisableWebViewDrop: on Linux it unsets the webview as a drop
		// target, and no drop arrives at all (wailsapp/wails#3563; tested
		// by test/window's TestDropPDF).
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		OnStartup:   app.startupWithLinks,
		OnShutdown:  app.shutdown,
		Bind:        []any{app},
		// Every bound method's error reaches the UI as events.Error: a code
		// to switch on and a message to show.
		ErrorFormatter: app.formatError,
		Linux: &linux.Options{
			Icon:             icon,
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
			ProgramName:      "agentero",
		},
	})
	if err != nil {
		log.Error("app stopped", "err", err)
		os.Exit(1)
	}
}

// noDisplay says why the window cannot open on a Linux machine without a
// display (a server, an SSH session), or "" when there is one.
func noDisplay() string {
	if runtime.GOOS != "linux" || os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return ""
	}
	return "no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); the commands of `agentero --help` work without one"
}
