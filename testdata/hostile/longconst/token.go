// Package longconst compares its inputs with constants longer than the
// bound a search starts with.
package longconst

import (
	"bytes"
	"strings"
)

const secret = "correct horse battery staple, and then some!" // 44 bytes

// IsSecret compares s whole with a 44-byte constant.
func IsSecret(s string) bool { return s == secret }

// IsFifty reports whether s is 50 bytes long.
func IsFifty(s string) bool { return len(s) == 50 }

// HasSecret reports whether s starts with the constant.
func HasSecret(s string) bool { return strings.HasPrefix(s, secret) }

// IsSecretBytes compares b whole with the constant.
func IsSecretBytes(b []byte) bool { return bytes.Equal(b, []byte(secret)) }
