package build

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewriteGoWork checks the work go.work written from a user's: its
// use and replace directories absolute, the runtime module used, other
// lines (toolchain, godebug, versioned replacements) kept.
func TestRewriteGoWork(t *testing.T) {
	ins, err := filepath.Glob("testdata/gowork/*.in")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			copies := []*Module{{Path: "example.com/y", Copy: "/work/mods/y"}}
			out, err := RewriteGoWork(in, data, "/work/rtmod", copies...)
			if err != nil {
				t.Fatal(err)
			}
			// The golden file names the input's directory $DIR.
			dir, err := filepath.Abs(filepath.Dir(in))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(string(out), filepath.Dir(dir), "$PARENT")
			checkGolden(t, strings.TrimSuffix(in, ".in")+".golden", got)
		})
	}
}
