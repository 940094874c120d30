// Command package builds Agentero's installable packages from a built
// binary: a Debian package (with nfpm, as a library) and a self-contained
// tarball, both laid out the same way:
//
//	/usr/bin/agentero                      → ../lib/agentero/agentero
//	/usr/lib/agentero/agentero             the desktop binary
//	/usr/lib/agentero/libpdfium.so         native PDFium, found beside the binary
//	/usr/share/applications/agentero.desktop
//	/usr/share/icons/hicolor/{scalable,512x512}/apps/agentero.{svg,png}
//	/usr/share/doc/agentero/               THIRD_PARTY_NOTICES, copyright, PDFium's licences
//
// It also writes THIRD_PARTY_NOTICES (the `notices` command): the Go
// modules linked into the binary and the npm packages bundled in the
// frontend, each with its licence text.
//
// It is its own Go module so that nfpm and its dependencies never enter the
// app's module.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "notices":
		err = noticesCmd(os.Args[2:])
	case "deb", "tarball", "all":
		err = packageCmd(os.Args[1], os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "package:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  package notices --root DIR --tags TAGS --out FILE
  package deb|tarball|all --root DIR --bin FILE --pdfium DIR --notices FILE --version V --out DIR`

func noticesCmd(args []string) error {
	fs := flag.NewFlagSet("notices", flag.ContinueOnError)
	root := fs.String("root", ".", "the app's checkout")
	tags := fs.String("tags", "", "build tags of the binary")
	out := fs.String("out", "", "file to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("--out is needed")
	}
	text, err := Notices(*root, *tags)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, []byte(text), 0o644)
}

func packageCmd(kind string, args []string) error {
	fs := flag.NewFlagSet(kind, flag.ContinueOnError)
	var s Sources
	fs.StringVar(&s.Root, "root", ".", "the app's checkout (build/linux holds the desktop entry and icons)")
	fs.StringVar(&s.Binary, "bin", "", "the production binary")
	fs.StringVar(&s.PDFium, "pdfium", "", "folder with libpdfium.so, licenses/ and THIRD_PARTY_NOTICES.md (optional)")
	fs.StringVar(&s.Notices, "notices", "", "THIRD_PARTY_NOTICES file")
	fs.StringVar(&s.Version, "version", "", "package version (Debian syntax)")
	out := fs.String("out", "build/package", "folder the packages are written to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if s.Binary == "" || s.Notices == "" || s.Version == "" {
		return fmt.Errorf("--bin, --notices and --version are needed")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	files, err := s.Layout()
	if err != nil {
		return err
	}
	if kind == "deb" || kind == "all" {
		p, err := WriteDeb(files, s.Version, *out)
		if err != nil {
			return err
		}
		fmt.Println("wrote", p)
	}
	if kind == "tarball" || kind == "all" {
		p, err := WriteTarball(files, s.Version, *out)
		if err != nil {
			return err
		}
		fmt.Println("wrote", p)
	}
	return nil
}
