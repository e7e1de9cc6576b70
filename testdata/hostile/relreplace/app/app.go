// Package app reads a file and uses a module that its go.mod replaces by
// a relative directory (../limits).
package app

import (
	"os"

	"example.com/limits"
)

// Allowed reports whether the size of the file named by SIZE_FILE is
// within the limit.
func Allowed() bool {
	data, err := os.ReadFile(os.Getenv("SIZE_FILE"))
	if err != nil {
		return false
	}
	return len(data) <= limits.Max
}
