// Package a imports nothing of its module.
package a

import "strings"

// Up upper-cases s.
func Up(s string) string { return strings.ToUpper(s) }
