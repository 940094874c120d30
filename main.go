// Command agentero is the Agentero desktop app and its command line
// (SPEC §12): with no command it opens the window on a vault.
package main

import (
	"embed"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/agentero/agentero/backend/pdf"
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
		switch name := os.Args[1]; name {
		case "version", "--version":
			fmt.Println("agentero", version)
			return
		case "help", "--help", "-h":
			fmt.Println(usage)
			return
		case "--agentero-context-mcp":
			os.Exit(runContextMCP(os.Args[2:]))
		case "--builtin-agent":
			os.Exit(runBuiltinAgent(os.Args[2:]))
		default:
			if _, ok := commands[name]; ok {
				os.Exit(runCommand(name, os.Args[2:], os.Stdout, os.Stderr))
			}
		}
	}
	fs := flag.NewFlagSet("agentero", flag.ContinueOnError)
	vaultDir := fs.String("vault", "", "vault folder to open (default: the last one, else the example vault)")
	if err := fs.Parse(os.Args[1:]); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	app := NewApp(*vaultDir, log)
	err := wails.Run(&options.App{
		Title:     "Agentero",
		Width:     1280,
		Height:    820,
		MinWidth:  760,
		MinHeight: 480,
		AssetServer: &assetserver.Options{
			Assets:  assets,
			Handler: app.vaultFiles(),
		},
		OnStartup:  app.startup,
		OnShutdown: app.shutdown,
		Bind:       []any{app},
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
