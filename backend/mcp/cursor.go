package mcp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
)

// A cursor says where a cut result continues: an offset, bound to the request
// it continues by a short hash of that request. It carries no authority:
// every call is checked against the grant again.

// maxOffset bounds cursor offsets; nothing the tools return is longer.
const maxOffset = 1 << 30

func cursorKey(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:6])
}

func makeCursor(key string, off int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("c1:" + strconv.Itoa(off) + ":" + key))
}

// readCursor returns the offset of cursor c for the request key; an empty
// cursor is offset 0.
func readCursor(c, key string) (int, error) {
	if c == "" {
		return 0, nil
	}
	bad := errorf("cursor is not valid for this request: pass the nextCursor of the previous call with the same arguments")
	if len(c) > maxCursor {
		return 0, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return 0, bad
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 3 || parts[0] != "c1" || parts[2] != key {
		return 0, bad
	}
	off, err := strconv.Atoi(parts[1])
	if err != nil || off < 0 || off > maxOffset || parts[1] != strconv.Itoa(off) {
		return 0, bad
	}
	return off, nil
}
