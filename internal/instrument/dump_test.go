package instrument

import (
	"os"
	"testing"
)

// TestDump instruments DOWSE_DUMP_PKG in DOWSE_DUMP_DIR and keeps the
// result in DOWSE_KEEP (a debugging aid).
func TestDump(t *testing.T) {
	dir, pkg := os.Getenv("DOWSE_DUMP_DIR"), os.Getenv("DOWSE_DUMP_PKG")
	if dir == "" || pkg == "" {
		t.Skip("set DOWSE_DUMP_DIR and DOWSE_DUMP_PKG")
	}
	flags := instrumentedBuild(t, dir, pkg)
	out, err := goCmd(dir, append(append([]string{"vet"}, flags...), pkg)...)
	t.Logf("%v\n%s", err, out)
}
