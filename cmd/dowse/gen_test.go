package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/golden"
)

var updateGen = flag.Bool("update-gen", false, "rewrite the golden files of the gen tests")

func TestGenFlags(t *testing.T) {
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"-h"}, exitOK, "usage: dowse gen"},
		{[]string{"-search=astar"}, exitUsage, `unknown strategy "astar"`},
		{[]string{"-run=("}, exitUsage, "-run:"},
		{[]string{"-max-len=-1"}, exitUsage, "-max-len"},
		{[]string{"-workers=0"}, exitUsage, "-workers"},
		{[]string{"-max-runs=-5"}, exitUsage, "bounds must not be negative"},
		{[]string{"-no-such-flag"}, exitUsage, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			_, _, code := parseGenFlags(tt.args, &stderr)
			if code != tt.code || !strings.Contains(stderr.String(), tt.msg) {
				t.Errorf("code %d, stderr:\n%s\nwant code %d and %q", code, stderr.String(), tt.code, tt.msg)
			}
		})
	}
	cfg, patterns, code := parseGenFlags([]string{"-max-runs=7", "-search=dfs", "-run=^PutA$", "./x", "./y"}, &bytes.Buffer{})
	if code != -1 || cfg.explore.MaxRuns != 7 || cfg.explore.Strategy != "dfs" || !cfg.run.MatchString("PutA") ||
		strings.Join(patterns, " ") != "./x ./y" || cfg.maxLen != 10 {
		t.Errorf("parsed %+v %v %d", cfg, patterns, code)
	}
}

// The module the end-to-end tests run on.
var tinyModule = map[string]string{
	"go.mod": "module example.com/tiny\n\ngo 1.22\n",
	"calc/calc.go": `// Package calc is a unit under test.
package calc

// Div divides, and panics on zero like Go does.
func Div(a, b int) int { return a / b }

// Sign classifies x.
func Sign(x int) int {
	if x < 0 {
		return -1
	}
	if x > 0 {
		return 1
	}
	return 0
}
`,
	"calc/put_test.go": `package calc

import "testing"

func PutSign(t *testing.T, x int) {
	if s := Sign(x); s*x < 0 {
		t.Errorf("Sign(%d) = %d", x, s)
	}
}

func PutDiv(t *testing.T, a, b int) {
	_ = Div(a, b)
}

func PutStr(t *testing.T, s string, bs []byte) {
	if len(s) > len(bs) {
		t.Skip("assumes s no longer than bs")
	}
}
`,
	"calc/other_test.go": `package calc

import "testing"

func PutMap(t *testing.T, m map[[2]float64]int) {}
`,
	"calc/fuzz_test.go": `package calc

import "testing"

func FuzzSign(f *testing.F) {
	f.Add(5)
	f.Fuzz(func(t *testing.T, x int) {
		if Sign(x) > 1 {
			t.Fatal("impossible")
		}
	})
}
`,
}

// runGen runs dowse gen in a fresh copy of files and returns the exit
// code, the output, and the directory.
func runGenIn(t *testing.T, files map[string]string, args ...string) (code int, stdout, stderr, dir string) {
	t.Helper()
	dir = t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	code = genMain(context.Background(), append([]string{"-C", dir}, args...), &out, &errb)
	return code, out.String(), errb.String(), dir
}

// treeFiles maps the files below dir to a hash of their content.
func treeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := readTree(t, dir)
	for name, content := range files {
		files[name] = fmt.Sprintf("%x", sha256.Sum256([]byte(content)))
	}
	return files
}

func TestGenCompileError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	files := map[string]string{
		"go.mod":       "module example.com/broken\n\ngo 1.22\n",
		"b.go":         "package b\n\nfunc F() int { return \"x\" }\n",
		"b_test.go":    "package b\n\nimport \"testing\"\n\nfunc PutF(t *testing.T, x int) { F() }\n",
		"other/o.go":   "package other\n",
		"other/o_test": "",
	}
	code, stdout, stderr, dir := runGenIn(t, files, "./...")
	if code != exitError || !strings.Contains(stderr, "./b.go:3:23: cannot use") || stdout != "" {
		t.Errorf("code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := len(treeFiles(t, dir)); got != len(files) {
		t.Errorf("%d files after gen, want %d", got, len(files))
	}
}

// TestGen runs the whole pipeline on a tiny module: the user's files stay
// as they were, only generated files are added, the JSON summary matches
// the golden one, the generated tests pass under go test, and a second run
// (with another number of workers) writes byte-identical files.
func TestGen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, tinyModule, "-json", "-workers=1", "./...")
	if code != exitError { // PutMap has an unsupported parameter
		t.Errorf("exit code %d, want %d\nstderr:\n%s", code, exitError, stderr)
	}
	after := treeFiles(t, dir)
	var targets []map[string]any
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("decoding the JSON output: %v\n%s", err, stdout)
		}
		targets = append(targets, m)
	}
	if len(targets) != 5 {
		t.Fatalf("%d JSON objects, want 5:\n%s", len(targets), stdout)
	}
	written := map[string]bool{}
	for _, m := range targets {
		for _, f := range m["files"].([]any) {
			written[filepath.ToSlash(f.(string))] = true
		}
		for _, key := range []string{"package", "target", "runs", "paths", "tests", "failures", "stop_reason", "exhaustive", "bounds", "elapsed_seconds", "solver_seconds", "divergences", "concretizations", "files"} {
			if _, ok := m[key]; !ok {
				t.Errorf("%s: no %q in the JSON summary", m["target"], key)
			}
		}
	}
	// The user's files are unchanged; every other file was reported.
	for name, hash := range after {
		content, original := tinyModule[name]
		switch {
		case original && fmt.Sprintf("%x", sha256.Sum256([]byte(content))) != hash:
			t.Errorf("%s was changed", name)
		case !original && !written[name]:
			t.Errorf("%s was written but not reported", name)
		}
	}
	for name := range tinyModule {
		if _, ok := after[name]; !ok {
			t.Errorf("%s was removed", name)
		}
	}
	checkGenGolden(t, "testdata/gen/tiny.json", normalizeJSON(stdout))
	// The generated tests compile and pass under plain go test.
	cmd := exec.Command("go", "test", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go test of the generated files: %v\n%s", err, out)
	}

	// Determinism: same seed, other worker count, same files.
	_, _, _, dir2 := runGenIn(t, tinyModule, "-json", "-workers=4", "./...")
	if again := treeFiles(t, dir2); fmt.Sprint(again) != fmt.Sprint(after) {
		t.Errorf("a second run wrote other files:\nfirst  %v\nsecond %v", after, again)
	}
}

// TestGenText checks the console output and -run.
func TestGenText(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, tinyModule, "-run=^PutSign$", "./calc")
	if code != exitOK && code != exitFindings {
		t.Errorf("exit code %d\nstderr:\n%s", code, stderr)
	}
	checkGenGolden(t, "testdata/gen/tiny-run.txt", normalizeText(stdout))

	// A full run, then -run again: the targets -run leaves out keep the
	// tests the full run generated for them.
	var out, errb bytes.Buffer
	// (The tiny module's PutMap is unsupported, so a full run exits 1.)
	if code := genMain(context.Background(), []string{"-C", dir, "./calc"}, &out, &errb); code == exitUsage {
		t.Fatalf("full run: exit code %d\n%s", code, errb.String())
	}
	full, err := os.ReadFile(filepath.Join(dir, "calc", "put_dowse_test.go"))
	if err != nil || !strings.Contains(string(full), "func TestDowsePutDiv(") {
		t.Fatalf("the full run wrote no PutDiv tests: %v\n%s", err, full)
	}
	out.Reset()
	errb.Reset()
	if code := genMain(context.Background(), []string{"-C", dir, "-run=^PutSign$", "./calc"}, &out, &errb); code != exitOK && code != exitFindings {
		t.Fatalf("-run after a full run: exit code %d\n%s", code, errb.String())
	}
	again, err := os.ReadFile(filepath.Join(dir, "calc", "put_dowse_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range []string{"func TestDowsePutDiv(", "func TestDowsePutSign("} {
		if !strings.Contains(string(again), fn) {
			t.Errorf("after -run=^PutSign$, %s is missing:\n%s", fn, again)
		}
	}
	cmd := exec.Command("go", "vet", "./calc")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("the merged file does not vet: %v\n%s", err, out)
	}
}

var secondsRE = regexp.MustCompile(`"(elapsed|solver|target|share)_seconds": ?[0-9.e-]+`)

func normalizeJSON(s string) string {
	return secondsRE.ReplaceAllString(s, `"${1}_seconds":0`)
}

var timeRE = regexp.MustCompile(`(?m)^  time .*\n`)

func normalizeText(s string) string {
	s = timeRE.ReplaceAllString(s, "  time ...\n")
	return packageTimeRE.ReplaceAllString(s, "; ...\n")
}

// packageTimeRE matches the time at the end of a package's line.
var packageTimeRE = regexp.MustCompile(`(?m); [0-9hm.]+s?\n`)

func checkGenGolden(t *testing.T, file, got string) {
	t.Helper()
	golden.Check(t, file, got, *updateGen)
}

// TestShards runs dowse gen on a module of three packages as one run and
// as two shards: the shards write disjoint sets of files whose union is
// what the single run writes.
func TestShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	files := map[string]string{"go.mod": "module example.com/shards\n\ngo 1.22\n"}
	for _, p := range []string{"a", "b", "c"} {
		files[p+"/"+p+".go"] = "package " + p + "\n\n// Pos reports whether x is positive.\nfunc Pos(x int) bool { return x > 0 }\n"
		files[p+"/"+p+"_test.go"] = "package " + p + "\n\nimport \"testing\"\n\nfunc PutPos(t *testing.T, x int) {\n\tif Pos(x) != (x > 0) {\n\t\tt.Fatal(x)\n\t}\n}\n"
	}
	written := func(args ...string) map[string]bool {
		t.Helper()
		code, _, stderr, dir := runGenIn(t, files, append(args, "-max-time", "10s", "./...")...)
		if code != exitOK {
			t.Fatalf("dowse gen %v: exit code %d\n%s", args, code, stderr)
		}
		out := map[string]bool{}
		for name := range readTree(t, dir) {
			if _, given := files[name]; !given {
				out[name] = true
			}
		}
		return out
	}
	all := written()
	one, two := written("-shard", "0/2"), written("-shard", "1/2")
	if len(all) != 3 || len(one) == 0 || len(two) == 0 || len(one)+len(two) != len(all) {
		t.Fatalf("files: all %v, shard 1 %v, shard 2 %v", all, one, two)
	}
	for name := range one {
		if two[name] || !all[name] {
			t.Errorf("%s: written by both shards, or not by the whole run", name)
		}
	}
	for name := range two {
		if !all[name] {
			t.Errorf("%s: written by shard 2, not by the whole run", name)
		}
	}
	if code, _, stderr, _ := runGenIn(t, files, "-shard", "2/2", "./..."); code != exitUsage || !strings.Contains(stderr, "-shard") {
		t.Errorf("-shard 2/2: exit code %d, want %d\n%s", code, exitUsage, stderr)
	}
}
