// Package testenv decides what a test does when a resource it needs from
// outside the repository (the shared benchmark module, a module download)
// is missing: on a developer's machine it skips, under CI it fails, so
// that a test cannot pass by not running.
package testenv

import (
	"os"
	"strconv"
	"testing"
)

// InCI reports whether the tests run under continuous integration: the
// environment variable CI is set to a true value ("true", "1", ...).
func InCI() bool {
	ci, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && ci
}

// Missing reports that a resource the test needs is missing: it fails the
// test under CI and skips it elsewhere.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf("missing under CI: "+format, args...)
		return
	}
	t.Skipf(format, args...)
}
