package instrument

import (
	"os"
	"path/filepath"
	"testing"
)

func benchDir(t testing.TB) string {
	d := filepath.Join(repoRoot(t), "..", "shared", "bench")
	if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
		t.Skip("../shared/bench not present")
	}
	return d
}

func TestBenchCompiles(t *testing.T) {
	dir := benchDir(t)
	for _, pkg := range []string{"./put/triangle", "./put/quicksort", "./put/linkedlist"} {
		t.Run(pkg, func(t *testing.T) {
			flags := instrumentedBuild(t, dir, pkg)
			out, err := goCmd(dir, append(append([]string{"test", "-count=1"}, flags...), pkg)...)
			if err != nil {
				t.Fatalf("instrumented test failed: %v\n%s", err, out)
			}
		})
	}
}
