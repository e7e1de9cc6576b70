package instrument

import (
	"os"
	"testing"
)

// TestDump instruments DOWSE_DUMP_PKG in DOWSE_DUMP_DIR, keeps the result
// in DOWSE_KEEP and runs go DOWSE_DUMP_VERB (vet by default) on it, which
// must succeed (a debugging aid; skipped unless the variables are set).
func TestDump(t *testing.T) {
	dir, pkg := os.Getenv("DOWSE_DUMP_DIR"), os.Getenv("DOWSE_DUMP_PKG")
	if dir == "" || pkg == "" {
		t.Skip("set DOWSE_DUMP_DIR and DOWSE_DUMP_PKG")
	}
	flags := instrumentedBuild(t, dir, pkg)
	verb := "vet"
	if v := os.Getenv("DOWSE_DUMP_VERB"); v != "" {
		verb = v
	}
	out, err := goCmd(dir, append(append([]string{verb}, flags...), pkg)...)
	if err != nil {
		t.Fatalf("go %s of the instrumented package: %v\n%s", verb, err, out)
	}
	t.Logf("%s", out)
}
