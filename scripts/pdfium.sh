#!/usr/bin/env bash
# Fetches the native PDFium library that the PDF workers read with (three
# times as fast as PDFium compiled to WebAssembly, which they fall back to):
# the libpdfium.so of bblanchon/pdfium-binaries (chromium/7934), as the npm
# package pdfium-node-linux-x64-gnu ships it, with its licence files, into
# .tools/pdfium/. Both the package and the library are checked against the
# hashes below. Other platforms read with WebAssembly.
set -euo pipefail

pkg=pdfium-node-linux-x64-gnu@1.2.1
tgz_sha256=81dc690e61cfe7ae6dd30aabae5ef1055c82a4fb6752898bd1f79eaab39a2d5c
lib_sha256=d3fb75e51ab2fd70037cbfcda0cccadca518fb39ac0362757b76338eec17d94f
dest=.tools/pdfium

if [[ $(uname -s) != Linux || $(uname -m) != x86_64 ]]; then
  echo "no native PDFium for $(uname -s)/$(uname -m): PDFs are read with PDFium compiled to WebAssembly"
  exit 0
fi
if [[ -f $dest/libpdfium.so ]] && echo "$lib_sha256  $dest/libpdfium.so" | sha256sum -c --quiet 2>/dev/null; then
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm pack "$pkg" --pack-destination "$tmp" --silent >/dev/null
tgz=$(ls "$tmp"/*.tgz)
echo "$tgz_sha256  $tgz" | sha256sum -c --quiet
tar -xzf "$tgz" -C "$tmp"
prebuilt=$tmp/package/prebuilds/linux-x64-gnu
echo "$lib_sha256  $prebuilt/libpdfium.so" | sha256sum -c --quiet

rm -rf "$dest"
mkdir -p "$dest"
cp "$prebuilt/libpdfium.so" "$prebuilt/PDFIUM_VERSION" "$dest/"
cp -r "$prebuilt/licenses" "$dest/licenses"
cp "$tmp/package/THIRD_PARTY_NOTICES.md" "$dest/"
echo "native PDFium in $dest ($(tr '\n' ' ' < "$dest/PDFIUM_VERSION"))"
