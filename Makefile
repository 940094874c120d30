# Agentero: `make run` sets everything up and opens the app on the example
# vault; `make test` runs every test. Both install what they need.

SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin

# One set of tags for tests and one for the desktop binary: each set compiles
# SQLite once (~90 s cold), then the build cache keeps it.
TEST_TAGS := sqlite_fts5
APP_TAGS  := desktop,production,webkit2_41,sqlite_fts5
BIN       := build/bin/agentero
DEV_TAGS  := dev,webkit2_41,sqlite_fts5
DEV_BIN   := build/bin/agentero-dev
VAULT     ?= examples/vault
GOFLAGS_APP := -tags $(APP_TAGS) -trimpath -ldflags "-s -w -X main.version=$(shell git describe --always --dirty 2>/dev/null || echo dev)"

.PHONY: all deps frontend build run test test-go test-frontend test-window test-e2e test-mcpinspector bench bindings clean package test-package

all: build

.tools/deps.stamp: scripts/deps.sh
	@mkdir -p .tools
	scripts/deps.sh
	@touch $@

# The native PDFium the PDF workers read with (scripts/pdfium.sh; where there
# is none, they read with PDFium compiled to WebAssembly).
.tools/pdfium.stamp: scripts/pdfium.sh | .tools/deps.stamp
	scripts/pdfium.sh
	@touch $@

deps: .tools/deps.stamp .tools/pdfium.stamp

# Go test binaries are not beside the library, so they are told where it is.
PDFIUM_ENV = AGENTERO_PDFIUM="$$(test -f .tools/pdfium/libpdfium.so && echo $(CURDIR)/.tools/pdfium/libpdfium.so)"

frontend/node_modules/.stamp: frontend/package-lock.json | .tools/deps.stamp
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

test/peeragent/node_modules/.stamp: test/peeragent/package-lock.json | .tools/deps.stamp
	cd test/peeragent && npm ci --no-audit --no-fund
	@touch $@

test/mcpinspector/node_modules/.stamp: test/mcpinspector/package-lock.json | .tools/deps.stamp
	cd test/mcpinspector && npm ci --no-audit --no-fund
	@touch $@

test/e2e/node_modules/.stamp: test/e2e/package-lock.json | .tools/deps.stamp
	cd test/e2e && npm ci --no-audit --no-fund
	@touch $@

frontend: frontend/node_modules/.stamp
	cd frontend && npm run build

# The desktop binary, and beside it the native PDFium with its licences.
build: deps frontend
	go build $(GOFLAGS_APP) -o $(BIN) .
	$(call copy-pdfium,$(dir $(BIN)))
	@echo "built $(BIN)"

define copy-pdfium
	@if [[ -f .tools/pdfium/libpdfium.so ]]; then \
	  cp .tools/pdfium/libpdfium.so $(1) && rm -rf $(1)pdfium-licenses && cp -r .tools/pdfium/licenses $(1)pdfium-licenses; \
	fi
endef

run: build
	@if [[ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]]; then \
	  echo "No display found: starting Agentero under Xvfb (invisible). Run it from a desktop session to see the window."; \
	  xvfb-run -a $(BIN) --vault $(VAULT); \
	else \
	  $(BIN) --vault $(VAULT); \
	fi

test: build test-go test-frontend test-window test-e2e test-package

# The ACP tests drive a scripted agent built on the ACP TypeScript SDK; the
# MCP server is also driven by the MCP inspector CLI (test/mcpinspector).
# Under make test nothing a test needs may be missing: the shared corpus,
# the native PDFium, the scripted peer agent and the MCP inspector are
# required (AGENTERO_TEST_STRICT), so a broken checkout fails instead of
# skipping. The packages that start goroutines of their own run under the
# race detector; the others run plain (-race costs a second SQLite build and
# slows the tests several times).
TEST_ENV  = AGENTERO_TEST_STRICT=1 AGENTERO_REQUIRE_PEER=1 $(PDFIUM_ENV)
RACE_PKGS := backend/acp backend/agent backend/context/grant backend/index backend/instance backend/library backend/loopback backend/mcp backend/pdf backend/sandbox backend/vault backend/watch backend/workspace cli
MODULE    := github.com/agentero/agentero
# Tests that start no goroutines of their own but read the whole corpus in
# the WebAssembly engine, which the race detector slows past half an hour:
# they run plain, after the race set (all are in backend/pdf).
RACE_SKIP := TestNativeMatchesWasm

test-go: deps test/peeragent/node_modules/.stamp test/mcpinspector/node_modules/.stamp
	go vet -tags $(TEST_TAGS) ./...
	race="$(addprefix $(MODULE)/,$(RACE_PKGS))"; \
	rest=$$(go list -tags $(TEST_TAGS) ./... | grep -vxF "$$(tr ' ' '\n' <<<"$$race")"); \
	$(TEST_ENV) go test -tags $(TEST_TAGS) -race -count=1 -timeout 30m -skip '^($(RACE_SKIP))$$' $$race && \
	$(TEST_ENV) go test -tags $(TEST_TAGS) -count=1 -timeout 30m $$rest && \
	$(TEST_ENV) go test -tags $(TEST_TAGS) -count=1 -timeout 30m -run '^($(RACE_SKIP))$$' ./backend/pdf/

test-frontend: frontend/node_modules/.stamp
	cd frontend && npm test

# The real desktop binary in a real WebKitGTK window under Xvfb, on the
# example vault, checked by a screenshot (kept in test-artifacts/).
test-window: build
	AGENTERO_TEST_STRICT=1 AGENTERO_BIN=$(CURDIR)/$(BIN) AGENTERO_ARTIFACTS=$(CURDIR)/test-artifacts \
	  go test -tags $(TEST_TAGS) -count=1 -run TestWindow -v ./test/window/

# The real frontend in headless Chromium (the system's, driven by
# playwright-core) against the real backend: a Wails dev build serves
# frontend/dist and the Go bindings over its websocket on a localhost port.
test-e2e: frontend test/e2e/node_modules/.stamp test/peeragent/node_modules/.stamp
	go build -tags $(DEV_TAGS) -o $(DEV_BIN) .
	$(call copy-pdfium,$(dir $(DEV_BIN)))
	cd test/e2e && AGENTERO_DEV_BIN=$(CURDIR)/$(DEV_BIN) AGENTERO_ARTIFACTS=$(CURDIR)/test-artifacts npm test

# The MCP servers driven by independent clients: the MCP inspector CLI, and the
# official TypeScript client against the whole-vault server (stdio and HTTP).
test-mcpinspector: build test/mcpinspector/node_modules/.stamp
	AGENTERO_TEST_STRICT=1 AGENTERO_BIN=$(CURDIR)/$(BIN) go test -tags $(TEST_TAGS) -count=1 -run 'TestInspector|TestVault' -v ./test/mcpinspector/

# Figures side by side with their references (pdftotext, the filesystem MCP
# server); -p 1 so that packages do not compete for the two cores.
bench: deps test/mcpinspector/node_modules/.stamp test/peeragent/node_modules/.stamp
	$(PDFIUM_ENV) go test -tags $(TEST_TAGS) -p 1 -run '^$$' -bench . -benchtime 1x -timeout 60m ./backend/...

# Installable packages in build/package/ (tools/package, its own Go module:
# nfpm as a library): a .deb and a self-contained tarball, each with the
# binary, the native PDFium and its licences, the desktop entry (also the
# agentero:// link handler), the icons and THIRD_PARTY_NOTICES.
PKG_VERSION := 0.1.0+git$(shell git rev-parse --short HEAD 2>/dev/null || echo 0)
PKG_DIR     := build/package
PKG_TOOL    := .tools/bin/agentero-package
package: build
	desktop-file-validate build/linux/agentero.desktop
	cd tools/package && go build -o ../../$(PKG_TOOL) .
	@mkdir -p $(PKG_DIR) && rm -f $(PKG_DIR)/agentero*.deb $(PKG_DIR)/agentero-*.tar.gz
	$(PKG_TOOL) notices --root . --tags $(APP_TAGS) --out $(PKG_DIR)/THIRD_PARTY_NOTICES
	$(PKG_TOOL) all --root . --bin $(BIN) --pdfium .tools/pdfium --notices $(PKG_DIR)/THIRD_PARTY_NOTICES \
	  --version $(PKG_VERSION) --out $(PKG_DIR)

# The .deb installed into a throwaway root (dpkg --root), its binary opened
# on the example vault under Xvfb (screenshot checked), then removed.
test-package: package
	AGENTERO_TEST_STRICT=1 AGENTERO_DEB=$(CURDIR)/$(PKG_DIR)/agentero_$(PKG_VERSION)_amd64.deb \
	  AGENTERO_TARBALL=$(CURDIR)/$(PKG_DIR)/agentero-$(PKG_VERSION)-linux-x86_64.tar.gz \
	  AGENTERO_ARTIFACTS=$(CURDIR)/test-artifacts \
	  go test -tags $(TEST_TAGS) -count=1 -run TestPackage -v ./test/window/

# Regenerates frontend/wailsjs (committed) after App's methods change.
bindings: deps
	GOBIN=$(CURDIR)/.tools/bin go install github.com/wailsapp/wails/v2/cmd/wails@v2.11.0
	@# The generator runs the app once, which needs a display: Xvfb when there is none.
	if [[ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]]; then xvfb-run -a .tools/bin/wails generate module -tags $(TEST_TAGS); \
	else .tools/bin/wails generate module -tags $(TEST_TAGS); fi

clean:
	rm -rf build/bin frontend/dist/assets frontend/dist/index.html test-artifacts
