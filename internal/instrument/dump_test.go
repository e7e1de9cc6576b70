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
	verb := "vet"
	if v := os.Getenv("DOWSE_DUMP_VERB"); v != "" {
		verb = v
	}
	out, err := goCmd(dir, append(append([]string{verb}, flags...), pkg)...)
	t.Logf("%v\n%s", err, out)
}
