package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
	for _, decl := range []string{"type dowseStoreFlusherSizer struct", "level:\"high\"", "(*Mem)(nil)", `data: []byte("GO")`} {
		if !bytes.Contains(gen, []byte(decl)) {
			t.Errorf("the generated file has no %s\n%s", decl, gen)
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
