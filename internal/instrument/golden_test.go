package instrument

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"hash/fnv"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// TestGolden instruments the small package of testdata/golden and
// compares each file's rewrite with its x.go.golden, so that a reader can
// see what the rewrite does without running it (go test -run TestGolden
// -update rewrites the golden files after a deliberate change).
func TestGolden(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading %s: %d packages, errors %v", dir, len(pkgs), pkgs[0].Errors)
	}
	files, err := Package(pkgs[0], &Sites{})
	if err != nil {
		t.Fatal(err)
	}
	// The rewrite names the file by its absolute path (line directives)
	// and tags its type aliases with a hash of that path: both are
	// replaced by what does not depend on where the repository lies.
	rewritten := map[string][]byte{}
	for name, src := range files {
		h := fnv.New32a()
		h.Write([]byte(name))
		src = bytes.ReplaceAll(src, []byte(fmt.Sprintf("_%08x", h.Sum32())), []byte("_TAG"))
		src = bytes.ReplaceAll(src, []byte(filepath.Dir(name)+string(filepath.Separator)), []byte(dir+"/"))
		// The printer pads lines after a line directive to the column of
		// the original, which depends on the path's length: gofmt makes
		// the indentation canonical.
		formatted, err := format.Source(src)
		if err != nil {
			t.Fatalf("formatting the rewrite of %s: %v", name, err)
		}
		rewritten[filepath.Base(name)] = formatted
	}
	tests := []struct {
		file string
		what string
	}{
		{"branches.go", "if statements on comparisons, && in a return"},
		{"strings.go", "a string's length, a byte of it, a whole comparison"},
		{"loops.go", "a counting loop; a closure in a range loop"},
		{"maps.go", "a map lookup with comma-ok"},
		{"stdlib.go", "a call of a modelled standard library function"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, ok := rewritten[tt.file]
			if !ok {
				t.Fatalf("%s not rewritten (%s)", tt.file, tt.what)
			}
			golden := filepath.Join(dir, tt.file+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("rewrite of %s (%s) differs from %s:\n%s", tt.file, tt.what, golden, got)
			}
		})
	}
	if len(rewritten) != len(tests) {
		t.Errorf("%d files rewritten, %d in the table", len(rewritten), len(tests))
	}
}
