// Package b is a module of the workspace that imports the other one:
// only the workspace resolves the import (b's go.mod has no replace).
package b

import "example.com/a"

// Twice returns twice the magnitude of x.
func Twice(x int) int {
	if a.Sign(x) < 0 {
		return -2 * x
	}
	return 2 * x
}
