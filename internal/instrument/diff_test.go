package instrument

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/testenv"
)

func benchDir(t testing.TB) string {
	d := filepath.Join(repoRoot(t), "..", "shared", "bench")
	if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
		testenv.Missing(t, "../shared/bench not present")
	}
	return d
}

// copyModule copies the source of module path@version from the module
// cache (downloading it if needed) into a writable directory: files in the
// module cache cannot be overlaid.
func copyModule(t *testing.T, mod string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		testenv.Missing(t, "go mod download %s: %v", mod, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %s", mod, out)
	}
	dst := filepath.Join(t.TempDir(), "mod")
	// CopyFS makes the copies writable (the module cache is read-only).
	if err := os.CopyFS(dst, os.DirFS(info.Dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// testOutcomes runs go test -json and returns the final action of every
// test and subtest ("pass", "fail", "skip").
func testOutcomes(t *testing.T, dir string, env []string, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-json", "-count=1", "-vet=off"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"), env...)
	out, _ := cmd.Output()
	res := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var buildOut strings.Builder
	for sc.Scan() {
		var ev struct{ Action, Package, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		if ev.Action == "build-output" || ev.Action == "output" && ev.Test == "" {
			buildOut.WriteString(ev.Output)
		}
		switch ev.Action {
		case "pass", "fail", "skip":
			res[ev.Package+" "+ev.Test] = ev.Action
		}
	}
	if len(res) == 0 {
		t.Fatalf("go test %v ran nothing:\n%s", args, buildOut.String())
	}
	if strings.Contains(buildOut.String(), "[build failed]") || strings.Contains(buildOut.String(), "setup failed") {
		t.Logf("build output:\n%s", buildOut.String())
	}
	return res
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

// TestConstructs runs the constructs fixture (generics, defer/recover,
// goto, labels, fallthrough, type switches, method values, closures,
// ranges over strings, maps, functions and integers, shadowed builtins,
// aggregate copies, evaluation order) plain, instrumented and traced.
func TestConstructs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "constructs")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "constructs"))); err != nil {
		t.Fatal(err)
	}
	compareRuns(t, dir, "./...")
}

// TestDifferential instruments real packages that the project does not
// contain, runs their own tests plain and instrumented, and requires the
// same outcome for every test and subtest.
func TestDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds third-party packages twice")
	}
	cases := []struct{ module, pkgs string }{
		{"golang.org/x/mod@v0.42.0", "./semver"},
		{"golang.org/x/mod@v0.42.0", "./module"},
		{"golang.org/x/mod@v0.42.0", "./modfile"},
		{"golang.org/x/mod@v0.42.0", "./sumdb/note"},
		{"golang.org/x/mod@v0.42.0", "./internal/lazyregexp"},
		{"golang.org/x/sync@v0.24.0", "./errgroup"},
		{"golang.org/x/sync@v0.24.0", "./semaphore"},
		{"golang.org/x/sync@v0.24.0", "./singleflight"},
		{"github.com/pmezard/go-difflib@v1.0.0", "./difflib"},
		{"golang.org/x/tools@v0.52.0", "./go/ast/astutil"},
		{"golang.org/x/tools@v0.52.0", "./go/ast/inspector"},
		{"golang.org/x/tools@v0.52.0", "./go/types/typeutil"},
		{"golang.org/x/tools@v0.52.0", "./internal/diff/..."},
		{"golang.org/x/tools@v0.52.0", "./go/cfg"},
	}
	for _, c := range cases {
		t.Run(c.module+"/"+strings.TrimPrefix(c.pkgs, "./"), func(t *testing.T) {
			dir := copyModule(t, c.module)
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
				os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+strings.Split(c.module, "@")[0]+"\n\ngo 1.20\n"), 0o644)
			}
			compareRuns(t, dir, c.pkgs)
		})
	}
}

// compareRuns runs the tests of pkgs in module dir plain, instrumented
// with tracing off and with tracing on, and requires the same outcome for
// every test and subtest.
func compareRuns(t *testing.T, dir, pkgs string) {
	t.Helper()
	{
		{
			plain := testOutcomes(t, dir, nil, pkgs)
			flags := instrumentedBuild(t, dir, pkgs)
			// Instrumented, with tracing off (as in a plain run of
			// generated tests) and on (as in a worker).
			for _, mode := range []struct {
				name string
				env  []string
			}{{"instrumented", nil}, {"traced", []string{"DOWSE_TRACE_ALL=1"}}} {
				inst := testOutcomes(t, dir, mode.env, append(flags, pkgs)...)
				var diffs []string
				for k, v := range plain {
					if inst[k] != v {
						diffs = append(diffs, fmt.Sprintf("%s: plain %s, %s %q", k, v, mode.name, inst[k]))
					}
				}
				for k, v := range inst {
					if _, ok := plain[k]; !ok {
						diffs = append(diffs, fmt.Sprintf("%s: only %s (%s)", k, mode.name, v))
					}
				}
				sort.Strings(diffs)
				if len(diffs) > 0 {
					t.Errorf("%d differences:\n%s", len(diffs), strings.Join(diffs, "\n"))
				}
			}
			t.Logf("%d tests agree", len(plain))
		}
	}
}

// TestPanicLeavesFileAlone checks that a panic of the rewrite leaves the
// file uninstrumented (recorded in Sites.Skipped) instead of failing.
func TestPanicLeavesFileAlone(t *testing.T) {
	var sites Sites
	src, err := safeInstrumentFile(nil, nil, &sites, Options{})
	var internal *internalError
	if src != nil || !errors.As(err, &internal) {
		t.Fatalf("safeInstrumentFile on nil input = %v, %v; want an internal error", src, err)
	}
}
