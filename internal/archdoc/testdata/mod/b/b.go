// Package b imports a.
package b

import "example.com/mod/a"

// Shout upper-cases s.
func Shout(s string) string { return a.Up(s) + "!" }
