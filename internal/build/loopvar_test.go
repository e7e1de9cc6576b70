package build

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dowse-go/dowse/internal/load"
)

// TestLoopVarSemantics builds modules whose loops have the shared
// variables of Go 1.21 (a go.mod declaring go 1.21, a file with a
// //go:build go1.21 line) instrumented, with and without the module's
// other packages instrumented, and runs their tests in the worker binary:
// they state what Go 1.21 does, pass under plain go test, and must pass
// instrumented too. The work go.mod once declared go 1.22 (the runtime
// module's go line raised it), and every loop got per-iteration
// variables.
func TestLoopVarSemantics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	for _, tt := range []struct {
		fixture string
		module  bool // -instrument-module
	}{
		{"loopvar121", false},
		{"loopvar121", true},
		{"loopvarfile", false},
	} {
		name := tt.fixture
		if tt.module {
			name += "/instrument-module"
		}
		t.Run(name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join("..", "..", "testdata", "hostile", tt.fixture))
			plain := exec.Command("go", "test", "-count=1", "./...")
			plain.Dir = dir
			plain.Env = withEnv(nil, "GOWORK=off", "GOFLAGS=")
			if out, err := plain.CombinedOutput(); err != nil {
				t.Fatalf("plain go test: %v\n%s", err, out)
			}
			pkgs, _, err := load.Load(load.Config{Dir: dir, Deps: tt.module}, ".")
			if err != nil {
				t.Fatal(err)
			}
			w, err := NewWork(false)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cfg := Config{Instrumenter: &SourceInstrumenter{}, InstrumentModule: tt.module}
			bin, err := w.Build(context.Background(), cfg, pkgs[0], pkgs[0].Targets)
			if err != nil {
				t.Fatal(err)
			}
			run := exec.Command(bin.Path, "-test.v", "-test.run=^Test")
			run.Dir = pkgs[0].Dir
			if out, err := run.CombinedOutput(); err != nil {
				t.Errorf("instrumented tests fail where plain go test passes: %v\n%s", err, out)
			}
		})
	}
}
