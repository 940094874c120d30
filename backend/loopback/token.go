package loopback

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// NewToken returns a fresh bearer token: 32 random bytes, base64url.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// MinTokenBits is the least a bearer token must hold: 22 base64 characters
// or 32 hexadecimal ones.
const MinTokenBits = 128

// CheckToken says why a bearer token is too weak to guard the vault, or nil.
// A token is read as base64 (standard or URL alphabet, padding aside) or, when
// it holds only hexadecimal digits, as hexadecimal, and must carry at least
// MinTokenBits at that alphabet's density. It must also look random: one
// repeated character, a repeated pattern or a handful of characters is the
// kind of token a person types, never one a generator makes.
func CheckToken(token string) error {
	t := strings.TrimRight(token, "=")
	if t == "" {
		return errors.New("the token is empty")
	}
	hex := true
	for _, c := range t {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c >= 'g' && c <= 'z', c >= 'G' && c <= 'Z', c == '-', c == '_', c == '+', c == '/':
			hex = false
		default:
			return errors.New("the token holds characters other than base64 or hexadecimal digits")
		}
	}
	bits, alphabet, need := 6*len(t), "base64", (MinTokenBits+5)/6
	if hex {
		bits, alphabet, need = 4*len(t), "hexadecimal", MinTokenBits/4
	}
	if bits < MinTokenBits {
		return fmt.Errorf("the token holds %d bits, fewer than %d: use at least %d %s characters (or let Agentero make one)", bits, MinTokenBits, need, alphabet)
	}
	distinct := map[rune]bool{}
	for _, c := range t {
		distinct[c] = true
	}
	if len(distinct) < 10 {
		return fmt.Errorf("the token does not look random: it uses only %d different characters", len(distinct))
	}
	for n := 1; n <= len(t)/2; n++ {
		if len(t)%n == 0 && strings.Repeat(t[:n], len(t)/n) == t {
			return fmt.Errorf("the token does not look random: it repeats %d characters", n)
		}
	}
	return nil
}

// ReadTokenFile reads the bearer token kept in path, which must be private to
// the user: a regular file they own that no one else may read or write (mode
// 0600 or stricter), holding a token CheckToken accepts. Each refusal says
// why and what to do.
func ReadTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read the token file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("read the token file: %w", err)
	}
	switch {
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("the token file %s is not a regular file", path)
	case !ownedByMe(st):
		return "", fmt.Errorf("the token file %s belongs to another user: a token must be private to you", path)
	case st.Mode().Perm()&0o077 != 0:
		return "", fmt.Errorf("the token file %s may be read or written by others (mode %04o): make it private (chmod 600 %s) and change the token, which others could read", path, st.Mode().Perm(), path)
	}
	data, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("read the token file: %w", err)
	}
	t := strings.TrimSpace(string(data))
	if err := CheckToken(t); err != nil {
		return "", fmt.Errorf("the token in %s is refused: %w", path, err)
	}
	return t, nil
}
