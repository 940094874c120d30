//go:build !(linux || darwin)

package pdf

import "errors"

// loadNative fails here: the native PDFium is loaded with dlopen, which
// this platform's workers do not have; they read with WebAssembly.
func loadNative(string) error { return errors.New("no native PDFium on this platform") }

// nativeReader is never opened here (loadNative fails first).
type nativeReader struct{ wasmReader }

func openNative(string) (*nativeReader, error) {
	return nil, errors.New("no native PDFium on this platform")
}
