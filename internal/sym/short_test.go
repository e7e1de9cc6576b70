package sym

import "testing"

// skipRaceCopy skips, under -short, a slow test that runs on one
// goroutine: scripts/test.sh runs the package with -race -short, where
// such a test cannot show a data race and costs minutes, and runs it
// again without -short, where it checks what it is for.
func skipRaceCopy(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("one goroutine, slow under -race: runs without -short")
	}
}
