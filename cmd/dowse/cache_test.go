package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/cache"
)

// TestMain gives the tests a result cache of their own, so that they
// neither read nor fill the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "dowse-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(cache.EnvDir, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The module of TestCache: b imports a, c stands alone and has a
// finding (PutDiv panics on b == 0) and a fuzz target; e and f have no
// PUTs (automatic targets), f imports e and e's external tests import
// f, so that e's first in-package test file, generated, has f
// recompiled for e's tests.
var incModule = map[string]string{
	"go.mod": "module example.com/inc\n\ngo 1.22\n",
	"a/a.go": "package a\n\n// Pos reports whether x is positive.\nfunc Pos(x int) bool { return x > 0 }\n",
	"a/a_test.go": `package a

import "testing"

func PutPos(t *testing.T, x int) {
	if Pos(x) != (x > 0) {
		t.Fatal(x)
	}
}
`,
	"b/b.go": "package b\n\nimport \"example.com/inc/a\"\n\n// Both reports whether x and y are positive.\nfunc Both(x, y int) bool { return a.Pos(x) && a.Pos(y) }\n",
	"b/b_test.go": `package b

import "testing"

func PutBoth(t *testing.T, x, y int) {
	if Both(x, y) && x <= 0 {
		t.Fatal(x, y)
	}
}
`,
	"c/c.go": "package c\n\n// Div divides.\nfunc Div(a, b int) int { return a / b }\n\n// Sign classifies x.\nfunc Sign(x int) int {\n\tif x < 0 {\n\t\treturn -1\n\t}\n\tif x > 0 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n",
	"c/c_test.go": `package c

import "testing"

func PutDiv(t *testing.T, a, b int) {
	_ = Div(a, b)
}

func FuzzSign(f *testing.F) {
	f.Add(5)
	f.Fuzz(func(t *testing.T, x int) {
		if Sign(x) > 1 {
			t.Fatal("impossible")
		}
	})
}
`,
	"e/e.go":      "package e\n\n// Half halves even numbers.\nfunc Half(x int) int {\n\tif x%2 == 0 {\n\t\treturn x / 2\n\t}\n\treturn -1\n}\n",
	"e/x_test.go": "package e_test\n\nimport (\n\t\"testing\"\n\n\t\"example.com/inc/f\"\n)\n\nfunc TestQuarter(t *testing.T) {\n\tif f.Quarter(8) != 2 {\n\t\tt.Fatal(f.Quarter(8))\n\t}\n}\n",
	"f/f.go":      "package f\n\nimport \"example.com/inc/e\"\n\n// Quarter quarters multiples of 4.\nfunc Quarter(x int) int { return e.Half(e.Half(x)) }\n",
}

type cachedSummary struct {
	Target    string          `json:"target"`
	Runs      int             `json:"runs"`
	Paths     int             `json:"paths"`
	Tests     int             `json:"tests"`
	Failures  json.RawMessage `json:"failures"`
	Coverage  json.RawMessage `json:"coverage"`
	Files     []string        `json:"files"`
	Unchanged []string        `json:"unchanged"`
	Cached    bool            `json:"cached"`
}

// TestCache runs dowse gen again and again on one module: an unchanged
// target is not explored again (its summary replayed, its files kept
// byte for byte, a finding still exit status 3); an edited package
// re-explores its targets and those of the packages importing it; a
// deleted generated file is a miss; -cache=false explores everything.
func TestCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	t.Setenv(cache.EnvDir, t.TempDir())
	code, stdout, stderr, dir := runGenIn(t, incModule, "-json", "-max-time", "10s", "./...")
	if code != exitFindings {
		t.Fatalf("first run: exit code %d, want %d\n%s", code, exitFindings, stderr)
	}
	first := decodeCached(t, stdout)
	for name, s := range first {
		if s.Cached {
			t.Errorf("first run: %s reported cached", name)
		}
	}
	if len(first) != 6 {
		t.Fatalf("first run: %d targets, want 6:\n%s", len(first), stdout)
	}
	files := readTree(t, dir)

	// again runs dowse gen in dir and returns the targets reported cached
	// and not.
	again := func(wantCode int, args ...string) (cached, explored []string, sums map[string]cachedSummary) {
		t.Helper()
		var out, errb bytes.Buffer
		code := genMain(context.Background(), append([]string{"-C", dir, "-json", "-max-time", "10s"}, append(args, "./...")...), &out, &errb)
		if code != wantCode {
			t.Fatalf("dowse gen %v: exit code %d, want %d\n%s", args, code, wantCode, errb.String())
		}
		sums = decodeCached(t, out.String())
		for name, s := range sums {
			if s.Cached {
				cached = append(cached, name)
			} else {
				explored = append(explored, name)
			}
		}
		return sortedStrings(cached), sortedStrings(explored), sums
	}
	sameFiles := func(when string) {
		t.Helper()
		now := readTree(t, dir)
		for name, content := range files {
			if now[name] != content {
				t.Errorf("%s: %s differs", when, name)
			}
		}
		if len(now) != len(files) {
			t.Errorf("%s: %d files, want %d", when, len(now), len(files))
		}
	}

	// Nothing changed: everything cached, the same summaries, the same
	// files; PutDiv's failure keeps exit status 3.
	cached, explored, second := again(exitFindings)
	if len(explored) > 0 || len(cached) != 6 {
		t.Errorf("second run: cached %v, explored %v; want all 6 cached", cached, explored)
	}
	for name, s := range second {
		f := first[name]
		if s.Runs != f.Runs || s.Paths != f.Paths || s.Tests != f.Tests || string(s.Failures) != string(f.Failures) ||
			string(s.Coverage) != string(f.Coverage) || strings.Join(s.Files, " ") != strings.Join(f.Files, " ") {
			t.Errorf("%s: cached summary %+v differs from the first run's %+v", name, s, f)
		}
		if len(s.Files) > 0 && len(s.Unchanged) != len(s.Files) {
			t.Errorf("%s: cached, yet files %v not all unchanged (%v)", name, s.Files, s.Unchanged)
		}
	}
	sameFiles("second run")

	// The text output says so.
	var out, errb bytes.Buffer
	if code := genMain(context.Background(), []string{"-C", dir, "-max-time", "10s", "./c"}, &out, &errb); code != exitFindings {
		t.Fatalf("text run: exit code %d\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), " (2 cached), ") {
		t.Errorf("text output: the package line does not say 2 targets were cached:\n%s", out.String())
	}

	// Package a changes: a and b, which imports it, are explored again.
	aGo := filepath.Join(dir, "a", "a.go")
	if err := os.WriteFile(aGo, []byte(incModule["a/a.go"]+"\n// Edited.\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	cached, explored, _ = again(exitFindings)
	if fmt.Sprint(cached) != "[FuzzSign Half PutDiv Quarter]" || fmt.Sprint(explored) != "[PutBoth PutPos]" {
		t.Errorf("after editing a: cached %v, explored %v; want c's cached, a's and b's explored", cached, explored)
	}
	files["a/a.go"] = incModule["a/a.go"] + "\n// Edited.\n"
	sameFiles("after editing a")

	// A deleted generated file is a miss, and is written again.
	gen := filepath.Join(dir, "c", "c_dowse_test.go")
	if _, ok := files["c/c_dowse_test.go"]; !ok {
		t.Fatalf("no c/c_dowse_test.go was generated: %v", sortedKeys(files))
	}
	if err := os.Remove(gen); err != nil {
		t.Fatal(err)
	}
	cached, explored, _ = again(exitFindings)
	if fmt.Sprint(explored) != "[FuzzSign PutDiv]" || len(cached) != 4 {
		t.Errorf("after deleting c's generated file: cached %v, explored %v; want c's explored", cached, explored)
	}
	sameFiles("after deleting c's generated file")

	// -cache=false explores everything again.
	cached, explored, _ = again(exitFindings, "-cache=false")
	if len(cached) > 0 || len(explored) != 6 {
		t.Errorf("-cache=false: cached %v, explored %v; want all explored", cached, explored)
	}
	sameFiles("-cache=false")
}

func decodeCached(t *testing.T, out string) map[string]cachedSummary {
	t.Helper()
	res := map[string]cachedSummary{}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var s cachedSummary
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("decoding the JSON output: %v\n%s", err, out)
		}
		res[s.Target] = s
	}
	return res
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	slices.Sort(out)
	return out
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
