package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/cache"
)

// hostile reads the module of testdata/hostile/<name>.
func hostile(t *testing.T, name string) map[string]string {
	t.Helper()
	files := readTree(t, filepath.Join("..", "..", "testdata", "hostile", name))
	// A fixture file gofmt would rewrite (an old-style +build line alone)
	// is kept as name.go.txt and written as name.go.
	for name, content := range files {
		if base, ok := strings.CutSuffix(name, ".go.txt"); ok {
			delete(files, name)
			files[base+".go"] = content
		}
	}
	return files
}

// A package that declares, by hand, the names dowse gives its generated
// tests (in either test package) gets generated tests under other,
// free names, and its tests still build and pass.
func TestHostileEmitNameCollision(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "namecollide"), "-max-time", "20s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFindings, stdout, stderr)
	}
	gen := readTree(t, dir)["max_dowse_test.go"]
	for _, fn := range []string{"func TestDowsePutMax2(", "func TestDowsePutMaxFailures2("} {
		if !strings.Contains(gen, fn) {
			t.Errorf("the generated file has no %s:\n%s", fn, gen)
		}
	}
	if !strings.Contains(stdout, "-run '^TestDowsePutMaxFailures2$'") {
		t.Errorf("the summary does not name the failures' test TestDowsePutMaxFailures2:\n%s", stdout)
	}
	generatedTestsPass(t, dir)
}

// A generated file whose targets are all gone (the PUTs of its source
// file removed, or the source file of automatic targets) is removed, and
// dowse says so: left behind, it would call functions that no longer
// exist.
func TestHostileEmitStaleFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, _, stderr, dir := runGenIn(t, hostile(t, "stalefile"), "-cache=false", "-max-time", "5s", "./...")
	if code != exitOK {
		t.Fatalf("first run: exit code %d\n%s", code, stderr)
	}
	steps := []struct {
		what    string
		edit    func()
		removed string // the generated file that must be gone
		kept    string // a generated file that must be there
	}{
		{"PutMax removed", func() { removeFile(t, dir, "max_test.go") }, "max_dowse_test.go", "min_dowse_test.go"},
		{"every PUT removed", func() { removeFile(t, dir, "min_test.go") }, "min_dowse_test.go", "minmax_dowse_auto_test.go"},
		{"the source of the automatic targets renamed", func() {
			if err := os.Rename(filepath.Join(dir, "minmax.go"), filepath.Join(dir, "funcs.go")); err != nil {
				t.Fatal(err)
			}
		}, "minmax_dowse_auto_test.go", "funcs_dowse_auto_test.go"},
	}
	for _, s := range steps {
		s.edit()
		var out, errb bytes.Buffer
		code := genMain(context.Background(), []string{"-C", dir, "-cache=false", "-max-time", "5s", "./..."}, &out, &errb)
		if code != exitOK {
			t.Fatalf("%s: exit code %d\n%s%s", s.what, code, out.String(), errb.String())
		}
		files := readTree(t, dir)
		if _, ok := files[s.removed]; ok {
			t.Errorf("%s: the stale %s is still there", s.what, s.removed)
		}
		if _, ok := files[s.kept]; !ok {
			t.Errorf("%s: no %s", s.what, s.kept)
		}
		if want := "removed " + s.removed + ": the targets it tested are gone"; !strings.Contains(errb.String(), want) {
			t.Errorf("%s: the output does not say %q:\n%s", s.what, want, errb.String())
		}
		generatedTestsPass(t, dir)
	}
}

func removeFile(t *testing.T, dir, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// Values of sized types in interface inputs are written with their type
// (int8(6), uint(6)): the untyped constant 6 would hold an int, and the
// function's type assertion would panic under plain go test.
func TestHostileEmitInterfaceLiterals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	// The comparators' panics on other dynamic types are preconditions,
	// listed apart: no finding.
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "ifacelit"), "-cache=false", "-max-time", "10s", "./...")
	if code != 0 {
		t.Fatalf("exit code %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	gen := readTree(t, dir)["cmp_dowse_auto_test.go"]
	for _, want := range []string{"a: int8(", "a: uint("} {
		if !strings.Contains(gen, want) {
			t.Errorf("no %q in the generated file:\n%s", want, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// Rows that pass in dowse's workers but panic under plain go test (one
// function's tests fill a registry that makes another panic) are found
// though each panic ends the test binary, and are left out: the file
// left in the package passes.
func TestHostileEmitRowsFailingUnderGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "sharedstate"), "-cache=false", "-max-time", "10s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "with other results when run again") {
		t.Errorf("the summary does not report the rows left out:\n%s", stdout)
	}
	generatedTestsPass(t, dir)
}

// Generated tests that do not build are never left in the package: the
// tests -run keeps of a PUT whose signature changed since no longer
// build, and the file is left as it was before the run, with an error.
func TestHostileEmitNotBuildingKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, _, stderr, dir := runGenIn(t, hostile(t, "keptstale"), "-cache=false", "-max-time", "5s", "./...")
	if code != exitOK {
		t.Fatalf("first run: exit code %d\n%s", code, stderr)
	}
	gen := filepath.Join(dir, "put_dowse_test.go")
	first, err := os.ReadFile(gen)
	if err != nil {
		t.Fatal(err)
	}
	put := filepath.Join(dir, "put_test.go")
	src, err := os.ReadFile(put)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "func PutB(t *testing.T, x int) {\n\tif x > 3", "func PutB(t *testing.T, s string) {\n\tif x := len(s); x > 3", 1)
	changed = strings.Replace(changed, "if Pos(x) != (x > 0) {", "if Pos(x) != (x > 0) || x == 12345 {", 1)
	if changed == string(src) {
		t.Fatal("the edit did not apply")
	}
	if err := os.WriteFile(put, []byte(changed), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code = genMain(context.Background(), []string{"-C", dir, "-cache=false", "-max-time", "5s", "-run", "^PutA$", "./..."}, &out, &errb)
	if code != exitError {
		t.Errorf("exit code %d, want %d\n%s%s", code, exitError, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "the generated tests did not build") {
		t.Errorf("the summary does not say the tests did not build:\n%s", out.String())
	}
	if after, err := os.ReadFile(gen); err != nil || string(after) != string(first) {
		t.Errorf("the generated file was changed (%v):\n%s", err, after)
	}
}

// A module whose go.mod says go 1.12 gets generated tests and mocks it
// can compile: interface{} for any, no generic function (slices.Equal,
// reflect.TypeFor).
func TestHostileEmitLanguageVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	// Save's failure is a nil input, listed apart: no finding.
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "go112"), "-cache=false", "-max-time", "5s", "./...")
	if code != 0 {
		t.Fatalf("exit code %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	files := readTree(t, dir)
	for _, name := range []string{"dowse_mocks_test.go", "store_dowse_auto_test.go"} {
		if _, ok := files[name]; !ok {
			t.Errorf("no %s", name)
		}
	}
	generatedTestsPass(t, dir)
}

// Failing rows are never lost: a later run with a smaller -max-runs,
// which does not find them again, keeps them (and says so, and exits
// 3), also when its result comes from the cache; only a row that passes
// when run again (the bug was fixed) is dropped, and the summary says so.
func TestHostileEmitKeepFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	t.Setenv(cache.EnvDir, t.TempDir())
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "keepfail"), "-max-time", "10s", "./...")
	if code != exitFindings {
		t.Fatalf("first run: exit code %d\n%s%s", code, stdout, stderr)
	}
	gen := func(args ...string) (int, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := genMain(context.Background(), append([]string{"-C", dir}, append(args, "./...")...), &out, &errb)
		return code, out.String() + errb.String()
	}
	rows := []string{`name:  "fail:a=12345,b=678"`, `name:   "panic:a=4242"`}
	hasRows := func(step string, want ...bool) {
		t.Helper()
		file := readTree(t, dir)["magic_dowse_test.go"]
		for i, r := range rows {
			if strings.Contains(file, r) != want[i] {
				t.Errorf("%s: row %s there: %v, want %v\n%s", step, r, !want[i], want[i], file)
			}
		}
	}
	hasRows("first run", true, true)
	for _, step := range []string{"-max-runs 1", "-max-runs 1, cached"} {
		code, out := gen("-max-runs", "1")
		if code != exitFindings || !strings.Contains(out, "kept 1 failing row an earlier run found") {
			t.Errorf("%s: exit code %d, want %d and the kept rows reported:\n%s", step, code, exitFindings, out)
		}
		if strings.HasSuffix(step, "cached") && !strings.Contains(out, " cached), ") {
			t.Errorf("%s: not cached:\n%s", step, out)
		}
		hasRows(step, true, true)
	}
	code, out := gen("-max-runs", "1", "-json")
	if code != exitFindings || !strings.Contains(out, `"kept_failures":["fail:a=12345,b=678"]`) {
		t.Errorf("-json: exit code %d, no kept_failures:\n%s", code, out)
	}
	// The panic is fixed: its row passes when run again and is dropped.
	src := filepath.Join(dir, "magic.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte(strings.Replace(string(data), "a == 4242", "a == 4243", 1)), 0o666); err != nil {
		t.Fatal(err)
	}
	code, out = gen("-max-runs", "1")
	if code != exitFindings || !strings.Contains(out, "dropped 1 failing row an earlier run found: run again, they no longer fail: panic:a=4242") {
		t.Errorf("after the fix: exit code %d, want %d and the dropped row reported:\n%s", code, exitFindings, out)
	}
	hasRows("after the fix", true, false)
	generatedTestsPass(t, dir)

	// PutCheck's b becomes a string: its kept row no longer fits, and
	// the file is written without it rather than not at all.
	put := filepath.Join(dir, "magic_test.go")
	if data, err = os.ReadFile(put); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "func PutCheck(t *testing.T, a, b int) {\n\tif !Check(a, b) {\n\t\tt.Errorf(\"Check(%d, %d) is false\", a, b)",
		"func PutCheck(t *testing.T, a int, b string) {\n\tif !Check(a, len(b)) {\n\t\tt.Errorf(\"Check(%d, %q) is false\", a, b)", 1)
	if edited == string(data) {
		t.Fatal("the edit of PutCheck did not apply")
	}
	if err := os.WriteFile(put, []byte(edited), 0o666); err != nil {
		t.Fatal(err)
	}
	code, out = gen("-max-runs", "1")
	if code != exitOK || !strings.Contains(out, "did not build with the failing rows kept from the earlier files") {
		t.Errorf("after PutCheck changed: exit code %d, want %d and a warning:\n%s", code, exitOK, out)
	}
	hasRows("after PutCheck changed", false, false)
	generatedTestsPass(t, dir)
}

// After the code under test changes, the regression rows whose inputs
// the earlier file had but whose results changed are listed, old → new,
// in the text summary and the JSON, and written with the new results.
func TestHostileEmitBehaviourChanged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "behaviour"), "-cache=false", "-max-time", "5s", "./...")
	if code != exitOK || strings.Contains(stdout, "behaviour changed") {
		t.Fatalf("first run: exit code %d\n%s%s", code, stdout, stderr)
	}
	src := filepath.Join(dir, "score.go")
	for _, step := range []struct {
		from, to string
		json     bool
		want     string
	}{
		{"return 99", "return 88", false, "behaviour changed: 1 row (written with the new results; check them):\n    x=11: want: 99 → want: 88\n"},
		{"return 88", "return 77", true, `"behaviour_changed":[{"case":"x=11","old":"want: 88","new":"want: 77"}]`},
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, []byte(strings.Replace(string(data), step.from, step.to, 1)), 0o666); err != nil {
			t.Fatal(err)
		}
		args := []string{"-C", dir, "-cache=false", "-max-time", "5s"}
		if step.json {
			args = append(args, "-json")
		}
		var out, errb bytes.Buffer
		if code := genMain(context.Background(), append(args, "./..."), &out, &errb); code != exitOK {
			t.Fatalf("%s: exit code %d\n%s%s", step.to, code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), step.want) {
			t.Errorf("%s: no %q in the summary:\n%s", step.to, step.want, out.String())
		}
		if gen := readTree(t, dir)["score_dowse_auto_test.go"]; !strings.Contains(gen, "want: "+strings.TrimPrefix(step.to, "return ")) {
			t.Errorf("%s: the new result is not written:\n%s", step.to, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// The failing inputs of a fuzz target, corpus files of its failures
// target, are carried as failing rows are: a later run that does not
// find them again keeps them (and exits 3); once the bug is fixed, the
// failures target passes on them and they are dropped.
func TestHostileEmitKeepFuzzFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "keepfuzz"), "-cache=false", "-max-time", "20s", "-fuzz-share", "0", "./...")
	if code != exitFindings {
		t.Fatalf("first run: exit code %d\n%s%s", code, stdout, stderr)
	}
	failDir := filepath.Join(dir, "testdata", "fuzz", "FuzzDowseFieldFailures")
	failing := func() []string {
		t.Helper()
		entries, _ := os.ReadDir(failDir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	first := failing()
	if len(first) == 0 {
		t.Fatalf("first run wrote no failing corpus file\n%s", stdout)
	}
	gen := func(args ...string) (int, string) {
		t.Helper()
		var out, errb bytes.Buffer
		code := genMain(context.Background(), append([]string{"-C", dir, "-cache=false", "-fuzz-share", "0"}, append(args, "./...")...), &out, &errb)
		return code, out.String() + errb.String()
	}
	code, out := gen("-max-runs", "1", "-json")
	if code != exitFindings || !strings.Contains(out, `"kept_failures":["`+first[0]) {
		t.Errorf("-max-runs 1: exit code %d, want %d and the kept input reported:\n%s", code, exitFindings, out)
	}
	if got := failing(); !slices.Equal(got, first) {
		t.Errorf("-max-runs 1: failing corpus %v, want %v kept", got, first)
	}
	if file := readTree(t, dir)["parse_dowse_test.go"]; !strings.Contains(file, first[0]+": an earlier run found it failing") {
		t.Errorf("the failures target does not list the kept input:\n%s", file)
	}
	generatedTestsPass(t, dir)

	// The bug is fixed: the kept input passes when run again.
	src := filepath.Join(dir, "parse.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte(strings.Replace(string(data), "n == 31337", "n == -31337", 1)), 0o666); err != nil {
		t.Fatal(err)
	}
	code, out = gen("-max-runs", "1")
	if code != exitOK || !strings.Contains(out, "dropped 1 failing row an earlier run found") {
		t.Errorf("after the fix: exit code %d, want %d and the dropped input reported:\n%s", code, exitOK, out)
	}
	if got := failing(); len(got) != 0 {
		t.Errorf("after the fix: failing corpus %v, want none", got)
	}
	generatedTestsPass(t, dir)
}
