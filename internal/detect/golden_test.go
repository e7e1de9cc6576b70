package detect_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/dowse-go/dowse/internal/detect"
	"github.com/dowse-go/dowse/internal/detect/report"
	"github.com/dowse-go/dowse/internal/detect/sources"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// scenarios are loaded from testdata/src in GOPATH mode; each writes a
// text and a JSON golden file.
var scenarios = []struct {
	name     string
	patterns []string
	opts     detect.Options
	cfg      *sources.Config
}{
	{name: "gomock", patterns: []string{"example.com/scenarios/gomock"}},
	{name: "testify", patterns: []string{"example.com/scenarios/testify"}},
	{name: "generated", patterns: []string{"example.com/scenarios/generated"}},
	{name: "containers", patterns: []string{"example.com/scenarios/containers"}},
	{name: "interproc-intra", patterns: []string{"example.com/scenarios/interproc"}},
	{name: "interproc-inter", patterns: []string{"example.com/scenarios/interproc"},
		opts: detect.Options{Interprocedural: true}},
	{name: "interproc-production", patterns: []string{"example.com/scenarios/interproc", "example.com/billing"},
		opts: detect.Options{Interprocedural: true, IntoProduction: true}},
	{name: "config-none", patterns: []string{"example.com/scenarios/config"}},
	{name: "config", patterns: []string{"example.com/scenarios/config"}, cfg: &sources.Config{
		MockTypes: []string{"example.com/billing/userfake.DB"},
		MockFuncs: []string{"example.com/billing/userfake.NewStub"},
	}},
	{name: "nomocks", patterns: []string{"example.com/scenarios/nomocks"}},
	{name: "broken", patterns: []string{"example.com/scenarios/broken", "example.com/scenarios/nomocks"}},
}

// gopathEnv is the environment that loads testdata/src in GOPATH mode.
func gopathEnv(t testing.TB) (dir string, env []string) {
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(abs, "src"), append(os.Environ(), "GOPATH="+abs, "GO111MODULE=off", "GOWORK=off", "GOFLAGS=")
}

func TestGolden(t *testing.T) {
	dir, env := gopathEnv(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			prog, err := detect.Load(detect.LoadConfig{Dir: dir, Env: env, Options: sc.opts}, sc.patterns...)
			if err != nil {
				t.Fatal(err)
			}
			var text, js bytes.Buffer
			th := report.NewTextHandler(&text)
			th.Verbose = true
			if _, err := prog.Analyze(sc.cfg, sc.opts, th); err != nil {
				t.Fatal(err)
			}
			if err := th.Flush(); err != nil {
				t.Fatal(err)
			}
			if _, err := prog.Analyze(sc.cfg, sc.opts, report.NewJSONHandler(&js)); err != nil {
				t.Fatal(err)
			}
			compare(t, filepath.Join("testdata", "golden", sc.name+".txt"), normalize(text.Bytes(), dir))
			compare(t, filepath.Join("testdata", "golden", sc.name+".json"), normalize(js.Bytes(), dir))
		})
	}
}

// normalize removes the machine-specific directory from error messages.
func normalize(b []byte, dir string) []byte {
	return bytes.ReplaceAll(b, []byte(dir), []byte("$SRC"))
}

func compare(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs; got:\n%s", golden, got)
	}
}
