// Package p uses packages in ways the instrumenter's rewrites remove:
// each file's import has no use left once its calls are replaced.
package p

import "os"

// Check exits when x is negative: os is used for os.Exit only.
func Check(x int) int {
	if x < 0 {
		os.Exit(3)
	}
	return x
}
