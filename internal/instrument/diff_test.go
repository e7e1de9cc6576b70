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
	allocs := map[string]bool{} // tests whose output talks of allocations
	for sc.Scan() {
		var ev struct{ Action, Package, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		key := ev.Package + " " + ev.Test
		if ev.Action == "build-output" || ev.Action == "output" && ev.Test == "" {
			buildOut.WriteString(ev.Output)
		}
		if ev.Action == "output" && strings.Contains(strings.ToLower(ev.Output), "alloc") {
			allocs[key] = true
		}
		switch ev.Action {
		case "pass", "skip":
			res[key] = ev.Action
		case "fail":
			res[key] = "fail"
			if allocs[key] {
				res[key] = failAllocs
			}
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

// longTail are more real packages for the differential check, run by
// TestDifferentialLongTail (DOWSE_DIFFERENTIAL=all): with TestDifferential's
// they make 50+ packages of 15 modules.
var longTail = []struct{ module, pkgs string }{
	{"golang.org/x/mod@v0.42.0", "./sumdb/tlog"},
	{"golang.org/x/mod@v0.42.0", "./sumdb/dirhash"},
	{"golang.org/x/mod@v0.42.0", "./zip"},
	{"golang.org/x/mod@v0.42.0", "./modfile"},
	{"golang.org/x/tools@v0.52.0", "./txtar"},
	{"golang.org/x/tools@v0.52.0", "./cover"},
	{"golang.org/x/tools@v0.52.0", "./go/buildutil"},
	{"golang.org/x/text@v0.44.0", "./transform"},
	{"golang.org/x/text@v0.44.0", "./width"},
	{"golang.org/x/text@v0.44.0", "./runes"},
	{"golang.org/x/text@v0.44.0", "./language"},
	{"golang.org/x/text@v0.44.0", "./internal/tag"},
	{"golang.org/x/text@v0.44.0", "./unicode/bidi"},
	{"golang.org/x/text@v0.44.0", "./encoding/unicode"},
	{"golang.org/x/text@v0.44.0", "./internal/stringset"},
	{"golang.org/x/text@v0.44.0", "./cases"},
	{"golang.org/x/net@v0.62.0", "./html"},
	{"golang.org/x/net@v0.62.0", "./html/atom"},
	{"golang.org/x/net@v0.62.0", "./idna"},
	{"golang.org/x/net@v0.62.0", "./http/httpguts"},
	{"golang.org/x/net@v0.62.0", "./publicsuffix"},
	{"github.com/google/uuid@v1.6.0", "."},
	{"github.com/BurntSushi/toml@v1.6.0", "."},
	{"github.com/google/go-cmp@v0.7.0", "./cmp"},
	{"github.com/google/go-cmp@v0.7.0", "./cmp/cmpopts"},
	{"github.com/google/go-cmp@v0.7.0", "./cmp/internal/diff"},
	{"github.com/google/go-cmp@v0.7.0", "./cmp/internal/value"},
	{"github.com/pkg/errors@v0.9.1", "."},
	{"github.com/spf13/pflag@v1.1.0", "."},
	{"gopkg.in/yaml.v3@v3.0.1", "."},
	{"github.com/davecgh/go-spew@v1.1.1", "./spew"},
	{"github.com/mattn/go-runewidth@v0.0.31", "."},
	{"github.com/Masterminds/semver/v3@v3.5.0", "."},
	{"golang.org/x/sync@v0.24.0", "./syncmap"},
	{"golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4", "./constraints"},
	{"golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4", "./maps"},
	{"golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4", "./slices"},
	{"golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4", "./slog"},
}

// TestDifferentialLongTail is TestDifferential over longTail. It takes
// several minutes and runs only with DOWSE_DIFFERENTIAL=all (the
// benchmark figures in docs/benchmarks.md come from it).
func TestDifferentialLongTail(t *testing.T) {
	if os.Getenv("DOWSE_DIFFERENTIAL") != "all" {
		t.Skip("set DOWSE_DIFFERENTIAL=all to run the long tail")
	}
	for _, c := range longTail {
		t.Run(c.module+"/"+strings.TrimPrefix(c.pkgs, "./"), func(t *testing.T) {
			dir := copyModule(t, c.module)
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
				os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+strings.Split(c.module, "@")[0]+"\n\ngo 1.20\n"), 0o644)
			}
			compareRunsAllowing(t, dir, c.pkgs, true)
		})
	}
}

// failAllocs is the outcome of a test that failed with a message about
// allocations (testing.AllocsPerRun): instrumented code allocates more
// (docs/instrument.md, "Known limits").
const failAllocs = "fail (allocations)"

// compareRuns runs the tests of pkgs in module dir plain, instrumented
// with tracing off and with tracing on, and requires the same outcome for
// every test and subtest.
func compareRuns(t *testing.T, dir, pkgs string) { compareRunsAllowing(t, dir, pkgs, false) }

// compareRunsAllowing is compareRuns; with allocs, tests that fail
// instrumented only because of allocation counts (and the parents that
// fail with them) are logged as known differences instead.
func compareRunsAllowing(t *testing.T, dir, pkgs string, allocs bool) {
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
				if allocs {
					var known []string
					diffs, known = splitAllocDiffs(plain, inst, diffs)
					if len(known) > 0 {
						t.Logf("%d known differences (allocation counts):\n%s", len(known), strings.Join(known, "\n"))
					}
				}
				if len(diffs) > 0 {
					t.Errorf("%d differences:\n%s", len(diffs), strings.Join(diffs, "\n"))
				}
			}
			t.Logf("%d tests agree", len(plain))
		}
	}
}

// splitAllocDiffs separates the differences (formatted by compareRuns,
// "key: ...") that come from allocation counts: a test that passed plain
// and failed instrumented with a message about allocations, and a parent
// (a test, or the package) that failed only because such a test did.
func splitAllocDiffs(plain, inst map[string]string, diffs []string) (real, known []string) {
	allocKeys := map[string]bool{}
	for k, v := range inst {
		if v == failAllocs && plain[k] == "pass" {
			allocKeys[k] = true
		}
	}
	causedByAllocs := func(k string) bool {
		if allocKeys[k] {
			return true
		}
		for a := range allocKeys {
			pkg, test, _ := strings.Cut(k, " ")
			if strings.HasPrefix(a, pkg+" ") && (test == "" || strings.HasPrefix(a, k+"/")) {
				return true
			}
		}
		return false
	}
	for _, d := range diffs {
		k, _, _ := strings.Cut(d, ": ")
		if causedByAllocs(k) && (inst[k] == "fail" || inst[k] == failAllocs) {
			known = append(known, d)
		} else {
			real = append(real, d)
		}
	}
	return real, known
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
