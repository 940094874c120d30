package window

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"image"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestPackage installs the .deb named by AGENTERO_DEB into a throwaway root
// with dpkg --root, checks what it declares and carries, opens the example
// vault with the installed binary under Xvfb (screenshot checked), removes
// the package and checks that nothing it installed is left. With
// AGENTERO_TARBALL it also checks the tarball carries the same tree.
func TestPackage(t *testing.T) {
	deb := os.Getenv("AGENTERO_DEB")
	if deb == "" {
		t.Skip("AGENTERO_DEB not set: run through `make test-package`")
	}
	for _, tool := range []string{"dpkg", "dpkg-deb", "desktop-file-validate", "objdump", "Xvfb", "/usr/bin/import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	artifacts := artifactsDir(t)

	// What the package declares.
	depends := strings.TrimSpace(run(t, "dpkg-deb", "-f", deb, "Depends"))
	t.Logf("Depends: %s", depends)
	declared := map[string]bool{}
	for _, d := range strings.Split(depends, ",") {
		declared[strings.Fields(strings.TrimSpace(d))[0]] = true
	}
	for _, want := range []string{"libgtk-3-0", "libwebkit2gtk-4.1-0"} {
		if !declared[want] {
			t.Errorf("Depends lacks %s: %s", want, depends)
		}
	}

	// A throwaway root with an empty dpkg database.
	root := t.TempDir()
	admin := filepath.Join(root, "var", "lib", "dpkg")
	for _, d := range []string{"info", "updates", "triggers"} {
		if err := os.MkdirAll(filepath.Join(admin, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(admin, "status"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	// The root has none of the libraries: their packages are the host's.
	dpkg := func(args ...string) string {
		return run(t, "dpkg", append([]string{"--root=" + root, "--log=/dev/null", "--force-depends", "--force-not-root"}, args...)...)
	}
	dpkg("-i", deb)
	installed := strings.Fields(dpkg("-L", "agentero"))
	for _, p := range []string{
		"/usr/bin/agentero", "/usr/lib/agentero/agentero", "/usr/lib/agentero/libpdfium.so",
		"/usr/share/applications/agentero.desktop", "/usr/share/icons/hicolor/scalable/apps/agentero.svg",
		"/usr/share/icons/hicolor/512x512/apps/agentero.png", "/usr/share/doc/agentero/THIRD_PARTY_NOTICES",
		"/usr/share/doc/agentero/pdfium/licenses/pdfium.txt",
	} {
		if !contains(installed, p) {
			t.Errorf("the package does not install %s", p)
		}
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("%s is not in the root after dpkg -i: %v", p, err)
		}
	}

	// Every library the binary and PDFium need is in a declared package.
	for _, f := range []string{"usr/lib/agentero/agentero", "usr/lib/agentero/libpdfium.so"} {
		for _, lib := range needed(t, filepath.Join(root, f)) {
			pkg := owner(t, lib)
			if !declared[pkg] {
				t.Errorf("%s needs %s from %s, which Depends does not name", f, lib, pkg)
			}
		}
	}

	// The desktop entry: valid, the link handler, the binary on PATH.
	desktop := filepath.Join(root, "usr/share/applications/agentero.desktop")
	run(t, "desktop-file-validate", desktop)
	entry, _ := os.ReadFile(desktop)
	for _, want := range []string{"MimeType=x-scheme-handler/agentero;", "Exec=agentero %u", "Icon=agentero"} {
		if !bytes.Contains(entry, []byte(want)) {
			t.Errorf("the desktop entry lacks %q:\n%s", want, entry)
		}
	}
	notices, _ := os.ReadFile(filepath.Join(root, "usr/share/doc/agentero/THIRD_PARTY_NOTICES"))
	for _, want := range []string{"github.com/wailsapp/wails/v2", "github.com/mattn/go-sqlite3", "pdfjs-dist", "markdown-it", "Apache License"} {
		if !bytes.Contains(notices, []byte(want)) {
			t.Errorf("THIRD_PARTY_NOTICES does not mention %s", want)
		}
	}

	// The installed binary opens the example vault, reading with its own PDFium.
	bin := filepath.Join(root, "usr/bin/agentero")
	firstScreen(t, bin, artifacts)
	logs, second := openInstalled(t, bin, artifacts)
	t.Logf("a second launch with a link: %s", second)
	if want := filepath.Join(root, "usr/lib/agentero/libpdfium.so"); !strings.Contains(logs, "pdfium="+want) {
		t.Errorf("the installed binary did not read with the installed PDFium %s:\n%s", want, logs)
	}

	// Removed, it leaves nothing behind.
	dpkg("-r", "agentero")
	after := tree(t, root)
	if left := diff(after, before, "var/lib/dpkg/"); len(left) > 0 {
		t.Errorf("removing the package left %d files behind: %v", len(left), left)
	}
	if status := dpkg("-l"); strings.Contains(status, "ii  agentero") {
		t.Errorf("dpkg still lists agentero as installed:\n%s", status)
	}

	if tgz := os.Getenv("AGENTERO_TARBALL"); tgz != "" {
		names := tarNames(t, tgz)
		// The tarball's usr/ is the tree the .deb installs.
		for _, p := range installed {
			if p != "/." && !names[strings.TrimPrefix(p, "/")] {
				t.Errorf("the tarball lacks %s, which the .deb installs", p)
			}
		}
		for _, p := range []string{"install.sh", "usr/bin/agentero", "usr/lib/agentero/agentero", "usr/lib/agentero/libpdfium.so",
			"usr/share/applications/agentero.desktop", "usr/share/doc/agentero/THIRD_PARTY_NOTICES", "usr/share/doc/agentero/pdfium/licenses/pdfium.txt"} {
			if !names[p] {
				t.Errorf("the tarball lacks %s", p)
			}
		}
		installTarball(t, tgz)
	}
}

// startInstalled starts the installed binary on display with args, as a
// user of an empty home (its own config and cache folders), its output
// kept in the returned buffer.
func startInstalled(t *testing.T, ctx context.Context, bin, display string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	home := t.TempDir()
	app := exec.CommandContext(ctx, bin, args...)
	app.Env = append(cleanEnv(), "DISPLAY="+display, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "NO_AT_BRIDGE=1")
	logs := &bytes.Buffer{}
	app.Stdout, app.Stderr = logs, logs
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	return app, logs
}

// firstScreen starts bin as a new user would (no vault opened before, an
// empty home) under Xvfb, and reads its window with Tesseract until the
// first screen offers its ways forward: Open vault…, New vault… and the
// example vault.
func firstScreen(t *testing.T, bin, artifacts string) {
	t.Helper()
	if _, err := exec.LookPath("tesseract"); err != nil {
		t.Fatalf("tesseract is needed to read the first screen: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	display := startXvfb(t, ctx)
	app, logs := startInstalled(t, ctx, bin, display)
	defer stopApp(app)
	shot := filepath.Join(artifacts, "package-first-screen.png")
	want := []string{"open vault", "new vault", "example vault"}
	seen := ""
	for ctx.Err() == nil {
		time.Sleep(2 * time.Second)
		if _, err := screenshot(ctx, display, shot); err != nil {
			continue
		}
		out, err := exec.CommandContext(ctx, "tesseract", shot, "-", "--psm", "11").Output()
		if err != nil {
			continue
		}
		seen = strings.ToLower(strings.Join(strings.Fields(string(out)), " "))
		missing := 0
		for _, w := range want {
			if !strings.Contains(seen, w) {
				missing++
			}
		}
		if missing == 0 {
			t.Logf("the installed app's first screen offers %q (screenshot %s)", want, shot)
			return
		}
	}
	t.Errorf("the installed app's first screen does not offer all of %q; it reads %q (screenshot %s)\n%s", want, seen, shot, logs.String())
}

// openInstalled starts bin on a copy of the example vault under Xvfb and
// waits for the library to show; then launches bin again with an
// agentero:// link, as the desktop entry does for a clicked link, and waits
// for the first window to show the page. It returns the app's log and the
// second launch's output.
func openInstalled(t *testing.T, bin, artifacts string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	display := startXvfb(t, ctx)
	vaultDir := filepath.Join(t.TempDir(), "vault")
	copyTree(t, "../../examples/vault", vaultDir)
	app, logs := startInstalled(t, ctx, bin, display, "--vault", vaultDir)
	defer stopApp(app)
	shot := filepath.Join(artifacts, "package-library.png")
	got := waitScreen(t, ctx, display, shot, 90*time.Second, func(r report) bool { return r.libraryShown() && indexed(t, vaultDir) })
	t.Logf("the installed binary shows the library: %+v (screenshot %s)", got, shot)
	if got.paperShown() {
		t.Fatalf("a paper is shown before the link was followed: %+v", got)
	}

	// The link handler: a second launch hands the link over and exits at once.
	link := "agentero://open?vault=" + url.QueryEscape(vaultDir) + "&ref=papers%2Fstrucplot-framework&page=3&quote=" + url.QueryEscape("This paper describes the strucplot framework provided by the vcd package")
	second := exec.CommandContext(ctx, bin, link)
	second.Env = app.Env
	out, err := second.CombinedOutput()
	if err != nil {
		t.Fatalf("the second launch failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "handed to the running Agentero") {
		t.Fatalf("the second launch did not hand the link over:\n%s", out)
	}
	pageShot := filepath.Join(artifacts, "package-link.png")
	got = waitScreen(t, ctx, display, pageShot, 60*time.Second, func(r report) bool { return r.paperShown() })
	t.Logf("the link opened its page: %+v (screenshot %s)", got, pageShot)
	// The quote is highlighted: the viewer's quote colour (a magenta tint) on the page.
	if marked := waitQuote(ctx, display, pageShot); marked < 200 {
		t.Errorf("the link's quote is not highlighted on the page (%d tinted pixels; screenshot %s)", marked, pageShot)
	}

	// Started by a link with no app running (a click on a link when
	// Agentero is closed): it opens the link's vault and page.
	stopApp(app)
	fresh := exec.CommandContext(ctx, bin, link)
	fresh.Env = app.Env
	var freshLogs bytes.Buffer
	fresh.Stdout, fresh.Stderr = &freshLogs, &freshLogs
	if err := fresh.Start(); err != nil {
		t.Fatal(err)
	}
	defer stopApp(fresh)
	startShot := filepath.Join(artifacts, "package-link-start.png")
	got = waitScreen(t, ctx, display, startShot, 90*time.Second, func(r report) bool { return r.paperShown() })
	if marked := waitQuote(ctx, display, startShot); marked < 200 {
		t.Errorf("started by the link, the quote is not highlighted (%d tinted pixels; screenshot %s)", marked, startShot)
	}
	if fresh.ProcessState != nil || strings.Contains(freshLogs.String(), "handed to the running") {
		t.Errorf("the launch by a link did not stay as the app:\n%s", freshLogs.String())
	}
	t.Logf("started by the link, it shows the page: %+v (screenshot %s)", got, startShot)
	return logs.String() + freshLogs.String(), string(out)
}

// cleanEnv is the environment without AGENTERO_PDFIUM, so that the binary
// finds its PDFium by itself.
func cleanEnv() []string {
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "AGENTERO_PDFIUM=") {
			env = append(env, e)
		}
	}
	return env
}

func stopApp(app *exec.Cmd) {
	app.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { app.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		app.Process.Kill()
		<-done
	}
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// needed lists the shared libraries an ELF file names (NEEDED).
func needed(t *testing.T, file string) []string {
	var libs []string
	for _, line := range strings.Split(run(t, "objdump", "-p", file), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "NEEDED" {
			libs = append(libs, f[1])
		}
	}
	if len(libs) == 0 {
		t.Fatalf("%s names no shared library", file)
	}
	return libs
}

// owner is the host's package that holds the library lib.
func owner(t *testing.T, lib string) string {
	for _, dir := range []string{"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64"} {
		p := filepath.Join(dir, lib)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		for _, q := range []string{p, strings.TrimPrefix(p, "/usr")} {
			out, err := exec.Command("dpkg", "-S", q).Output()
			if err == nil {
				pkg := strings.SplitN(strings.TrimSpace(strings.Split(string(out), "\n")[0]), ":", 2)[0]
				return strings.TrimSpace(pkg)
			}
		}
	}
	t.Fatalf("no package of the host holds %s", lib)
	return ""
}

// tree lists every file, link and folder under root, relative to it.
func tree(t *testing.T, root string) map[string]bool {
	got := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		got[rel] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// diff lists what is in a but not in b, outside the folder skip.
func diff(a, b map[string]bool, skip string) []string {
	var out []string
	for p := range a {
		if !b[p] && !strings.HasPrefix(p+"/", skip) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tarNames lists the tarball's entries below its top folder.
func tarNames(t *testing.T, file string) map[string]bool {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	names := map[string]bool{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.Index(h.Name, "/"); i >= 0 {
			names[strings.TrimSuffix(h.Name[i+1:], "/")] = true
		}
	}
	return names
}

// installTarball unpacks the tarball, runs its install.sh into a prefix,
// checks the installed program runs and the desktop entry names it, then
// uninstalls and checks that nothing is left.
func installTarball(t *testing.T, tgz string) {
	dir := t.TempDir()
	run(t, "tar", "-xzf", tgz, "-C", dir)
	tops, _ := filepath.Glob(filepath.Join(dir, "agentero-*"))
	if len(tops) != 1 {
		t.Fatalf("the tarball holds %v, not one agentero-VERSION folder", tops)
	}
	if out := run(t, filepath.Join(tops[0], "usr/bin/agentero"), "version"); !strings.HasPrefix(out, "agentero ") {
		t.Errorf("the unpacked binary does not run in place: %q", out)
	}
	prefix := filepath.Join(t.TempDir(), "prefix")
	os.MkdirAll(prefix, 0o755)
	before := tree(t, prefix)
	cmd := exec.Command("sh", filepath.Join(tops[0], "install.sh"))
	cmd.Env = append(os.Environ(), "PREFIX="+prefix, "XDG_DATA_HOME="+filepath.Join(prefix, "xdg"), "XDG_CONFIG_HOME="+filepath.Join(prefix, "xdg-config"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	if out := run(t, filepath.Join(prefix, "bin/agentero"), "version"); !strings.HasPrefix(out, "agentero ") {
		t.Errorf("the installed binary does not run: %q", out)
	}
	entry, err := os.ReadFile(filepath.Join(prefix, "share/applications/agentero.desktop"))
	if err != nil || !strings.Contains(string(entry), "Exec="+filepath.Join(prefix, "bin/agentero")+" %u") {
		t.Errorf("the installed desktop entry does not run the installed binary: %v\n%s", err, entry)
	}
	run(t, "desktop-file-validate", filepath.Join(prefix, "share/applications/agentero.desktop"))
	cmd = exec.Command("sh", filepath.Join(tops[0], "install.sh"), "--uninstall")
	cmd.Env = append(os.Environ(), "PREFIX="+prefix, "XDG_DATA_HOME="+filepath.Join(prefix, "xdg"), "XDG_CONFIG_HOME="+filepath.Join(prefix, "xdg-config"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("install.sh --uninstall: %v\n%s", err, out)
	}
	// What install.sh made is gone; folders it made may stay empty only
	// where they were the prefix's own (bin, lib, share), as with any
	// program installed into ~/.local.
	for p := range tree(t, prefix) {
		if before[p] || filepath.Base(p) == "mimeinfo.cache" || filepath.Base(p) == "mimeapps.list" {
			continue // the desktop's shared registries, which list every program
		}
		if st, err := os.Stat(filepath.Join(prefix, p)); err == nil && !st.IsDir() {
			t.Errorf("uninstalling left %s behind", p)
		}
	}
}

// waitQuote waits up to 20 s for the quote's highlight to show; it returns
// the tinted pixels of the last screenshot.
func waitQuote(ctx context.Context, display, file string) int {
	marked := 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second) {
		if img, err := screenshot(ctx, display, file); err == nil {
			if marked = quoteTinted(img); marked >= 200 {
				break
			}
		}
	}
	return marked
}

// quoteTinted counts the pixels of the middle pane tinted with the viewer's
// quote colour (--quote, magenta over white), which nothing else there uses.
func quoteTinted(img image.Image) int {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y + b.Dy()/10; y < b.Max.Y; y++ {
		for x := b.Min.X + b.Dx()*25/100; x < b.Min.X+b.Dx()*70/100; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r > g+25 && bl > g+25 && r > 150 {
				n++
			}
		}
	}
	return n
}
