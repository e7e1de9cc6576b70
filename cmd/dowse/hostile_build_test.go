package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildSummary is the part of a JSON summary the hostile build tests read.
type buildSummary struct {
	Package  string            `json:"package"`
	Target   string            `json:"target"`
	Error    string            `json:"error"`
	Skipped  string            `json:"skipped"`
	Runs     int               `json:"runs"`
	Failures []json.RawMessage `json:"failures"`
}

// genHostile runs dowse gen -json on a copy of the module
// testdata/hostile/<name>, with TMPDIR set to a directory of its own, and
// checks that no work directory is left behind there. It returns the exit
// code, the summaries by target, standard error and the copy's directory.
func genHostile(t *testing.T, name string, args ...string) (int, map[string]buildSummary, string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	files := hostile(t, name)
	code, stdout, stderr, dir := runGenIn(t, files, append([]string{"-json"}, args...)...)
	left, err := filepath.Glob(filepath.Join(tmp, "dowse-work-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("work directories left behind: %v", left)
	}
	got := map[string]buildSummary{}
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var s buildSummary
		if err := dec.Decode(&s); err != nil {
			break
		}
		got[s.Target] = s
	}
	return code, got, stderr, dir
}

// TestHostileBuildUnusedImport: files whose only uses of an import are
// calls the rewrite replaces (os.Exit in TestMain by the runtime's Exit;
// modelled strings and slices functions; isolated calls of os.Exit and
// os.Getenv), through a plain, a renamed or a dot import, still build
// instrumented: every target is explored.
func TestHostileBuildUnusedImport(t *testing.T) {
	code, got, stderr, _ := genHostile(t, "unusedimport", "-max-time", "3s", "./...")
	if code == exitError {
		t.Errorf("exit code %d\n%s", code, stderr)
	}
	if strings.Contains(stderr, "imported and not used") || strings.Contains(stderr, "a bug in dowse") {
		t.Errorf("the instrumented package did not build:\n%s", stderr)
	}
	for _, name := range []string{"Check", "CheckRenamed", "CheckDot", "HasAB", "HasThree", "IsDebug"} {
		s, ok := got[name]
		if !ok {
			t.Errorf("%s: no summary", name)
			continue
		}
		if s.Error != "" || s.Runs == 0 {
			t.Errorf("%s: not explored (%d runs): %s", name, s.Runs, s.Error)
		}
	}
}

// TestHostileBuildGenerics: a package with generic functions, generic
// types and their methods, whose generic code asserts values to types
// that mention type parameters ([]T, map[string]T, *Box[T], Getter[T],
// interface{ Value() T }): the worker's harness compiles, every function
// is explored, the generic ones on one instantiation, and the generated
// tests pass.
func TestHostileBuildGenerics(t *testing.T) {
	code, got, stderr, dir := genHostile(t, "generics", "-max-time", "2s", "./...")
	if code == exitError || strings.Contains(stderr, "a bug in dowse") {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	for _, name := range []string{"Big", "Describe", "ToIntE", "ToStringE", "Clamp", "Exists", "ToInt", "Ints", "Text",
		// Generic, explored on one instantiation.
		"ToE", "Must", "ToSlice", "Extract", "NewBox", "Box.Get", "Box.Set", "Pair.Swap", "Save", "Load"} {
		s, ok := got[name]
		if !ok || s.Error != "" || s.Skipped != "" || s.Runs == 0 {
			t.Errorf("%s: not explored: %+v", name, s)
		}
	}
	generatedTestsPass(t, dir)
}

// TestHostileBuildVendor: a module with a consistent vendor directory
// builds offline as the go command builds it, from vendor/ (by default:
// go 1.22 and a vendor directory; and with GOFLAGS=-mod=vendor): every
// target is explored, the generated tests pass, and dowse test runs the
// isolated rows. GOFLAGS=-mod=mod is honoured too: offline, the module
// then does not load, as go build says.
func TestHostileBuildVendor(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	t.Setenv("GONOSUMDB", "*")
	for _, goflags := range []string{"", "-mod=vendor"} {
		t.Run("GOFLAGS="+goflags, func(t *testing.T) {
			t.Setenv("GOFLAGS", goflags)
			code, got, stderr, dir := genHostile(t, "vendored", "-max-time", "2s", "./...")
			if code != exitOK {
				t.Fatalf("exit code %d\n%s", code, stderr)
			}
			for _, name := range []string{"Grade", "Level"} {
				if s := got[name]; s.Error != "" || s.Runs == 0 {
					t.Errorf("%s: not explored: %+v", name, s)
				}
			}
			generatedTestsPass(t, dir)
			var out, errb strings.Builder
			if code := testMain(context.Background(), []string{"-C", dir, "-count=1", "./..."}, &out, &errb); code != 0 {
				t.Errorf("dowse test: exit code %d\n%s%s", code, out.String(), errb.String())
			}
		})
	}
	t.Run("GOFLAGS=-mod=mod", func(t *testing.T) {
		t.Setenv("GOFLAGS", "-mod=mod")
		code, _, stderr, _ := genHostile(t, "vendored", "-max-time", "2s", "./...")
		if code != exitError || !strings.Contains(stderr, "do not compile") {
			t.Errorf("exit code %d, want %d and a load error\n%s", code, exitError, stderr)
		}
	})
}

// TestHostileBuildCgo: a file that imports "C" is not instrumented;
// dowse says so once (not only under -v), and its exported functions are
// skipped with that reason instead of vanishing ("no targets") or being
// called exhaustive after one uninstrumented run. The package's other
// functions are explored.
func TestHostileBuildCgo(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is not enabled")
	}
	code, got, stderr, _ := genHostile(t, "cgo", "-max-time", "2s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	if s := got["Sign"]; s.Error != "" || s.Runs == 0 {
		t.Errorf("Sign: not explored: %+v", s)
	}
	if s, ok := got["Twice"]; !ok || !strings.Contains(s.Skipped, `c.go, which imports "C"`) {
		t.Errorf("Twice: want skipped as declared in a cgo file, got %+v (present %v)", s, ok)
	}
	if n := strings.Count(stderr, `c.go: it imports "C" (files that use cgo are not instrumented)`); n != 1 {
		t.Errorf("the cgo file is named %d times, want once:\n%s", n, stderr)
	}
}

// TestHostileBuildConstraints: files for one platform (_linux.go,
// //go:build !linux), for a tag (-tags), ignored files and a test file
// with only an old-style "// +build" line: with -tags, the tagged PUT is
// explored, and the generated files carry the constraints of their
// source files, so plain go test (without the tags), and a build for
// another platform, still compile.
func TestHostileBuildConstraints(t *testing.T) {
	code, got, stderr, dir := genHostile(t, "buildtags", "-tags", "integration,mytag", "-max-time", "2s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	for _, name := range []string{"PutMode", "PutPlatform"} {
		if s := got[name]; s.Error != "" || s.Runs == 0 {
			t.Errorf("%s: not explored: %+v", name, s)
		}
	}
	generatedTestsPass(t, dir)
	for _, args := range [][]string{{"vet", "-tags", "integration,mytag", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS=windows")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=windows go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
