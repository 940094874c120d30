#!/usr/bin/env bash
# Installs what building, running and testing Agentero need on Debian 12:
# system packages through apt (only those missing), then checks Go and Node.
set -euo pipefail

pkgs=(
  gcc pkg-config                        # cgo (SQLite, WebKitGTK)
  libsqlite3-dev                        # sqlite3.h for the index's FTS5 rank function (the SQLite itself is go-sqlite3's)
  libgtk-3-dev libwebkit2gtk-4.1-dev    # the Wails window
  xvfb xauth imagemagick xdotool        # the window test: a virtual display, a screenshot, keyboard input
  chromium                              # the browser e2e test (playwright-core drives it; no browser download)
  poppler-utils                         # pdftotext, the reference in benchmarks and tests
  tesseract-ocr tesseract-ocr-eng       # OCR of scanned pages and garbled text layers (backend/pdf/ocr.go)
  desktop-file-utils                    # make package: desktop-file-validate checks the desktop entry
  bubblewrap                            # agents run confined (backend/sandbox; Landlock where namespaces are refused)
  nodejs npm                            # the frontend build (skipped when node is already installed)
)

missing=()
for p in "${pkgs[@]}"; do
  if [[ $p == nodejs || $p == npm ]] && command -v node >/dev/null && command -v npm >/dev/null; then
    continue
  fi
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v go >/dev/null; then
  if [[ -x /usr/local/go/bin/go ]]; then
    echo "Go is at /usr/local/go/bin but not on PATH: add it (export PATH=\$PATH:/usr/local/go/bin)" >&2
  else
    echo "Go 1.24 or newer is needed (https://go.dev/doc/install)" >&2
  fi
  exit 1
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if ((node_major < 20)); then
  echo "Node.js 20 or newer is needed for the frontend build (found $(node --version))" >&2
  exit 1
fi
