package instrument

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// repoRoot is the directory of the dowse module.
func repoRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// instrumentedBuild instruments the packages matched by pattern in module
// directory modDir (with their tests) and returns the go command flags
// that build them instrumented: -overlay and -modfile.
func instrumentedBuild(t testing.TB, modDir, pattern string) []string {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule,
		Dir:   modDir,
		Tests: true,
		Env:   append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"),
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if d := os.Getenv("DOWSE_KEEP"); d != "" {
		work = d
	}
	overlay := map[string]string{}
	sites := &Sites{}
	done := map[string]bool{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("load %s: %v", p.ID, p.Errors)
		}
		if strings.HasSuffix(p.ID, ".test") {
			continue // the generated test main
		}
		// The loader shares a file's syntax tree between variants: each
		// file is rewritten once.
		files, err := PackageWith(p, sites, Options{Skip: func(name string) bool { return done[name] }})
		if err != nil {
			t.Fatal(err)
		}
		for name, src := range files {
			if done[name] {
				continue
			}
			done[name] = true
			out := filepath.Join(work, "overlay", fmt.Sprintf("%d_%s", len(done), filepath.Base(name)))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, src, 0o644); err != nil {
				t.Fatal(err)
			}
			overlay[name] = out
		}
	}
	// Every site has a position in the original source (reports name it).
	for _, s := range sites.List {
		if !s.Pos.IsValid() {
			t.Errorf("site %d (%s) has no position", s.ID, s.Kind)
		}
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovPath := filepath.Join(work, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod := string(gomod) + fmt.Sprintf("\nrequire github.com/dowse-go/dowse v0.0.0\nreplace github.com/dowse-go/dowse => %s\n", repoRoot(t))
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := os.ReadFile(filepath.Join(modDir, "go.sum")); err == nil {
		os.WriteFile(filepath.Join(work, "go.sum"), sum, 0o644)
	}
	return []string{"-overlay", ovPath, "-modfile", filepath.Join(work, "go.mod"), "-mod=mod"}
}

func goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
