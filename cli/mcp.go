package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"

	"github.com/agentero/agentero/backend/atomicfile"
	"github.com/agentero/agentero/backend/loopback"
	"github.com/agentero/agentero/backend/mcp"
)

// runMCP is `agentero mcp DIR [--http 127.0.0.1:PORT --token-file FILE]`:
// the whole-vault MCP server for the user's own clients (SPEC §9),
// read-only. On stdio its stdout belongs to the protocol; over HTTP the
// first stdout line is {"url": …} and it serves until interrupted.
func runMCP(ctx context.Context, env Env, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	httpAddr := fs.String("http", "", "serve streamable HTTP on 127.0.0.1:PORT (0: a free port)")
	tokenFile := fs.String("token-file", "", "the bearer token's file (made, 0600, when missing)")
	pos, err := parseArgs(fs, args, 1)
	if err != nil {
		return err
	}
	// The user's reading budget (Settings), applied per request.
	prefs, err := env.Workspace.Config.Settings()
	if err != nil {
		env.logger().Warn("settings not loaded; the default budget is in force", "err", err)
	}
	if *httpAddr == "" {
		if *tokenFile != "" {
			return usageError{"--token-file goes with --http"}
		}
		return mcp.ServeVault(ctx, pos[0], env.Stdin, env.Stdout, env.logger(), "1", prefs.Budget)
	}
	port, err := loopbackPort(*httpAddr)
	if err != nil {
		return err
	}
	if *tokenFile == "" {
		return usageError{"--http needs --token-file FILE"}
	}
	token, err := readOrMakeToken(*tokenFile)
	if err != nil {
		return err
	}
	s, closeFn, err := mcp.OpenVault(pos[0], env.logger(), "1", prefs.Budget)
	if err != nil {
		return err
	}
	defer closeFn()
	srv, err := loopback.Start(loopback.Options{Port: port, Token: token, Server: s.MCP(), Logger: env.logger()})
	if err != nil {
		return err
	}
	defer srv.Close()
	line, _ := json.Marshal(map[string]string{"url": srv.URL()})
	if _, err := fmt.Fprintf(env.Stdout, "%s\n", line); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}

// loopbackPort reads 127.0.0.1:PORT (or localhost:PORT); any other
// address is refused: the server never listens beyond this machine.
func loopbackPort(addr string) (int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return 0, usageError{"--http wants 127.0.0.1:PORT"}
	}
	if host != loopback.Host && host != "localhost" {
		return 0, usageError{fmt.Sprintf("--http listens on %s only, not %s: other machines must not reach the vault", loopback.Host, host)}
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return 0, usageError{"--http wants a port between 0 and 65535"}
	}
	return port, nil
}

// readOrMakeToken reads the token in path (loopback.ReadTokenFile: private
// to the user, at least 128 bits), or writes a new one there (0600) when the
// file does not exist.
func readOrMakeToken(path string) (string, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		t, err := loopback.NewToken()
		if err != nil {
			return "", err
		}
		if err := atomicfile.Write(path, []byte(t+"\n"), atomicfile.Private); err != nil {
			return "", fmt.Errorf("write the token file: %w", err)
		}
		return t, nil
	}
	if err != nil {
		return "", fmt.Errorf("read the token file: %w", err)
	}
	return loopback.ReadTokenFile(path)
}
