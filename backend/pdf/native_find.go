package pdf

import (
	"os"
	"path/filepath"
	"runtime"
)

// PDFiumEnv names the native libpdfium to read with; it wins over the one
// beside the program.
const PDFiumEnv = "AGENTERO_PDFIUM"

// nativeLibName is the file name of the native PDFium library.
func nativeLibName() string {
	if runtime.GOOS == "darwin" {
		return "libpdfium.dylib"
	}
	return "libpdfium.so"
}

// NativePDFium returns the native libpdfium Extractors read with by
// default: $AGENTERO_PDFIUM when set (to "-" or a path), else libpdfium.so
// (.dylib on macOS) beside the program when it is there, else ""
// (WebAssembly).
func NativePDFium() string {
	if p := os.Getenv(PDFiumEnv); p != "" {
		if p == "-" {
			return ""
		}
		return p
	}
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), nativeLibName())
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// nativeMemoryLimit caps a native worker's address space. WebAssembly
// PDFium has its own 1 GiB cap; native code would otherwise let one hostile
// file take the machine's memory. Past the cap allocations fail, and the
// file fails (or its worker dies, which marks it damaged).
const nativeMemoryLimit = 4 << 30
