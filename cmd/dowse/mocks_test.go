package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMocks explores testdata/mocks, whose functions branch on the
// dynamic type of a Store: a store that is also a Flusher and a Sizer
// whose Size returns more than 100, a struct type whose first field is
// tagged level:"high", and a reader that is also a Kinder and whose Read
// fills its argument with "GO", exist only as generated mock types. Each
// failure must be found with mocks and not with -mocks=false (the
// package's own type and nil reach neither); the generated tests must
// compile and pass under go test, and a second run in the same module
// (whose generated file declares the mock types the worker declares too)
// must work and write the same file.
func TestMocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := readTree(t, filepath.Join("..", "..", "testdata", "mocks"))
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "3", "-cache=false", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	want := map[string]string{
		"PutSave":  "(*dowseStoreFlusherSizer).Size[0]=101",
		"PutLevel": "(*dowseStoreLevelHigh)",
		// Read fills its argument with solved bytes: "GO".
		"PutHeader": "(*dowseReaderKinder).Read[0].r2[0]=71, r.(*dowseReaderKinder).Read[0].r2[1]=79",
	}
	for target, input := range want {
		s, ok := got[target]
		if !ok {
			t.Fatalf("%s: no summary\n%s", target, stdout)
		}
		found := false
		for _, f := range s.Failures {
			found = found || strings.Contains(string(f), input)
		}
		if !found {
			t.Errorf("%s: no failure with input %s\n%s", target, input, stdout)
		}
		if !s.Exhaustive {
			t.Errorf("%s: not exhaustive; the dynamic types are a finite choice", target)
		}
	}
	// The JSON summary names the mock types the rows use and the type
	// constraints they meet.
	for _, s := range []string{`"name":"dowseStoreFlusherSizer"`, `{"constraint":"implements Sizer","met":true}`, `{"constraint":"tag level:\"high\"","met":true}`} {
		if !strings.Contains(stdout, s) {
			t.Errorf("the JSON summary has no %s\n%s", s, stdout)
		}
	}
	gen, err := os.ReadFile(filepath.Join(dir, "store_dowse_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range []string{"(*Mem)(nil)", `data: []byte("GO")`} {
		if !bytes.Contains(gen, []byte(decl)) {
			t.Errorf("the generated file has no %s\n%s", decl, gen)
		}
	}
	// The mock types are declared once for the package, in a file of
	// their own.
	decls, err := os.ReadFile(filepath.Join(dir, "dowse_mocks_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, decl := range []string{"type dowseStoreFlusherSizer struct", "level:\"high\""} {
		if !bytes.Contains(decls, []byte(decl)) {
			t.Errorf("the mock types' file has no %s\n%s", decl, decls)
		}
		if bytes.Contains(gen, []byte(decl)) {
			t.Errorf("the generated file declares %s too", decl)
		}
	}
	generatedTestsPass(t, dir)

	// Again, over the generated file: the same file.
	var out, errb bytes.Buffer
	if code := genMain(context.Background(), []string{"-C", dir, "-max-len", "3", "-cache=false", "./..."}, &out, &errb); code != 3 {
		t.Fatalf("second run: exit code %d\n%s\n%s", code, out.String(), errb.String())
	}
	again, err := os.ReadFile(filepath.Join(dir, "store_dowse_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gen, again) {
		t.Errorf("the second run wrote another file")
	}

	// Without mock types, neither failure is reachable.
	code, stdout, stderr, _ = runGenIn(t, files, "-json", "-max-len", "3", "-cache=false", "-mocks=false", "./...")
	if code != 3 { // the nil *Mem still panics in Put
		t.Fatalf("-mocks=false: exit code %d\n%s\n%s", code, stdout, stderr)
	}
	for target, s := range summaries(t, stdout) {
		for _, f := range s.Failures {
			if strings.Contains(string(f), "dowse") {
				t.Errorf("%s: -mocks=false found a failure with a mock: %s", target, f)
			}
		}
		if (target == "PutLevel" || target == "PutHeader") && len(s.Failures) > 0 {
			t.Errorf("%s: -mocks=false found %d failures", target, len(s.Failures))
		}
	}
}

// TestAutoMocks explores testdata/automocks, a package without tests:
// its automatic targets take a Store and branch on whether it is also a
// Flusher or a Sizer, which no type of the package is. With mock types
// the generated tests reach every statement (Save's "big" store is a
// mock of Store, Sizer and Flusher whose Size returns more than 100);
// with -mocks=false the only Store is nil. The two source files' tests
// use the same mock types, declared once (a type declared in both
// generated files would not compile); -mocks=false removes that file
// with the rows that used it. Classify looks through wrapped errors with
// errors.As and errors.Is: the package's *LimitError (and its typed nil,
// on which Classify panics), a mock of the Temporary interface
// errors.As asks for, and the sentinel wrapped by fmt.Errorf reach
// every statement; Where asks errors.As for a *fs.PathError, a
// type of another package, which is offered too. Describe asks reflect whether its any
// argument's type implements Store: a mock of Store, and a pointer to a
// variable of type Store, answer yes. The rows assert the calls Save
// made to its store (the mocks record them), so a Save that puts
// another value fails them.
func TestAutoMocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := readTree(t, filepath.Join("..", "..", "testdata", "automocks"))
	// Describe's any input loses its shadow in the interface (a
	// concretization): never exhaustive, so its runs are bounded.
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "3", "-cache=false", "-max-runs", "2000", "./...")
	if code != 3 { // the typed nil *LimitError that errors.As finds
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"Save", "Capacity", "Classify"} {
		if s, ok := got[target]; !ok || !s.Exhaustive {
			t.Errorf("%s: not explored exhaustively\n%s", target, stdout)
		}
	}
	store, err := os.ReadFile(filepath.Join(dir, "store_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	// Fields are compared with their alignment spaces squeezed. The rows
	// also assert the calls Save made to its store.
	spaces := regexp.MustCompile(` +`)
	store = spaces.ReplaceAll(store, []byte(" "))
	for _, want := range []string{"size: []int{101", `want: "big"`, `want: "unflushed"`, `wantErr: "no store"`, "wantSCalls: []string{`Put(", `"Flush()", "Size()"}`, "!slices.Equal(got, tt.wantSCalls)"} {
		if !bytes.Contains(store, []byte(want)) {
			t.Errorf("store_dowse_auto_test.go has no %s\n%s", want, store)
		}
	}
	// errors.As and errors.Is: the package's error type, a mock of the
	// interface errors.As asks for, and the sentinel errors.Is looks for
	// wrapped by fmt.Errorf.
	errs, err := os.ReadFile(filepath.Join(dir, "errs_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	errs = spaces.ReplaceAll(errs, []byte(" "))
	for _, want := range []string{`&LimitError{Limit: 101}, want: "big limit"`, "temporary: []bool{true", `fmt.Errorf("wrapped: %w", ErrMissing)`, `want: "wrapped missing"`, "(*LimitError)(nil)"} {
		if !bytes.Contains(errs, []byte(want)) {
			t.Errorf("errs_dowse_auto_test.go has no %s\n%s", want, errs)
		}
	}
	// errors.As with a type of another package: Where gets
	// *fs.PathErrors, the typed nil among them, on which it panics.
	paths, err := os.ReadFile(filepath.Join(dir, "paths_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	paths = spaces.ReplaceAll(paths, []byte(" "))
	for _, want := range []string{"Err: fs.ErrNotExist}", `want: "no file `, "(*fs.PathError)(nil)"} {
		if !bytes.Contains(paths, []byte(want)) {
			t.Errorf("paths_dowse_auto_test.go has no %s\n%s", want, paths)
		}
	}
	// reflect's Implements: a mock of the Store the package names in
	// reflect.TypeFor[Store](), and a pointer to a variable of it.
	desc, err := os.ReadFile(filepath.Join(dir, "describe_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	desc = spaces.ReplaceAll(desc, []byte(" "))
	for _, want := range []string{`want: "store"}`, `want: "pointer to a store"`, "func() *Store {"} {
		if !bytes.Contains(desc, []byte(want)) {
			t.Errorf("describe_dowse_auto_test.go has no %s\n%s", want, desc)
		}
	}
	decls, err := os.ReadFile(filepath.Join(dir, "dowse_mocks_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(decls, []byte("type dowseStoreSizer struct")); n != 1 {
		t.Errorf("dowseStoreSizer declared %d times in dowse_mocks_test.go, want 1\n%s", n, decls)
	}
	for _, name := range []string{"store_dowse_auto_test.go", "size_dowse_auto_test.go"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("type dowse")) {
			t.Errorf("%s declares a mock type; they belong in dowse_mocks_test.go", name)
		}
	}
	if cov := coverOf(t, dir); cov != "100.0%" {
		t.Errorf("coverage of the generated tests %s, want 100.0%%", cov)
	}
	// A Save that puts another value than it was given returns the
	// same results; the recorded calls tell it.
	src := filepath.Join(dir, "store.go")
	code0, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	mutant := bytes.Replace(code0, []byte("s.Put(key, v)"), []byte("s.Put(key, v+1)"), 1)
	if bytes.Equal(mutant, code0) {
		t.Fatal("store.go has no s.Put(key, v) to change")
	}
	if err := os.WriteFile(src, mutant, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestDowseSave$", ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil || !bytes.Contains(out, []byte("the calls of s are")) {
		t.Errorf("the generated tests do not tell Save putting v+1: %v\n%s", err, out)
	}

	code, stdout, stderr, dir = runGenIn(t, files, "-max-len", "3", "-cache=false", "-mocks=false", "./...")
	if code != 3 {
		t.Fatalf("-mocks=false: exit code %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "dowse_mocks_test.go")); err == nil {
		t.Errorf("-mocks=false wrote dowse_mocks_test.go")
	}
	if cov := coverOf(t, dir); cov == "100.0%" {
		t.Errorf("-mocks=false: coverage %s; nil alone cannot reach the Flusher's branches", cov)
	}
}

// coverOf is the statement coverage of the package in dir under its
// generated tests.
func coverOf(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-cover", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("generated tests fail under go test: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`coverage: ([0-9.]+%)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no coverage in\n%s", out)
	}
	return string(m[1])
}

// TestMockNodeBound explores testdata/mocktree, a binary tree reached
// only through an interface, whose nodes are mocks returned by other
// mocks' methods. With -max-len 3 a parameter holds at most three mock
// values: the nine trees of at most three nodes (the empty one included)
// are the nine paths, the root with two leaves fails, no tree of four
// nodes or more (which the nesting depth alone would allow) is run, and
// the verdict names the bound.
func TestMockNodeBound(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := readTree(t, filepath.Join("..", "..", "testdata", "mocktree"))
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "3", "-cache=false", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
	}
	s, ok := summaries(t, stdout)["PutShape"]
	if !ok {
		t.Fatalf("no summary of PutShape\n%s", stdout)
	}
	if s.Paths != 9 || !s.Exhaustive {
		t.Errorf("%d paths, exhaustive %v; want the 9 trees of at most 3 nodes, exhaustively", s.Paths, s.Exhaustive)
	}
	if len(s.Failures) != 1 || !strings.Contains(string(s.Failures[0]), "a root with two leaves") {
		t.Errorf("failures %s, want one: the root with two leaves", s.Failures)
	}
	if !strings.Contains(stdout, `"max_mock_values":3`) {
		t.Errorf("the verdict does not name the node bound\n%s", stdout)
	}
	generatedTestsPass(t, dir)
}
