package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFixture writes the hostile fixture name into a new temporary
// directory and returns it.
func writeFixture(t *testing.T, name string) string {
	t.Helper()
	root := t.TempDir()
	for file, content := range hostile(t, name) {
		p := filepath.Join(root, file)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestTrustWorkspace: a go.work workspace is handled as go test handles
// it. A module importing another module of the workspace (which only
// go.work resolves) loads and builds, in the module and from the root
// with patterns naming the modules; at the root, where go matches no
// package with ./..., dowse says what go says and which patterns to use;
// GOWORK=off set by the user is respected.
func TestTrustWorkspace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores modules")
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "")
	root := writeFixture(t, "workspace")
	gen := func(dir string, patterns ...string) (int, string, string) {
		var out, errb strings.Builder
		args := append([]string{"-C", dir, "-json", "-cache=false", "-max-time", "2s"}, patterns...)
		code := genMain(context.Background(), args, &out, &errb)
		return code, out.String(), errb.String()
	}

	code, _, stderr := gen(root, "./...")
	if code != exitError || !strings.Contains(stderr, "does not contain modules listed in go.work") || !strings.Contains(stderr, "dowse gen ./a/... ./b/...") {
		t.Errorf("./... at the root: exit code %d, want %d, go's message and the patterns to use\n%s", code, exitError, stderr)
	}

	code, stdout, stderr := gen(filepath.Join(root, "b"), "./...")
	if code != exitOK || !strings.Contains(stdout, `"target":"Twice"`) || strings.Contains(stdout, `"error"`) {
		t.Errorf("in module b: exit code %d, want %d and Twice explored\n%s\n%s", code, exitOK, stdout, stderr)
	}

	code, stdout, stderr = gen(root, "./a/...", "./b/...")
	if code != exitOK || !strings.Contains(stdout, `"target":"Sign"`) || !strings.Contains(stdout, `"target":"Twice"`) || strings.Contains(stdout, `"error"`) {
		t.Errorf("./a/... ./b/... at the root: exit code %d, want %d, Sign and Twice explored\n%s\n%s", code, exitOK, stdout, stderr)
	}
	for _, f := range []string{"a/a_dowse_auto_test.go", "b/b_dowse_auto_test.go"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "go.work.sum")); err == nil {
		t.Errorf("go.work.sum written in the user's workspace")
	}

	// What still needs a work go.mod says so in one line.
	code, _, stderr = gen(filepath.Join(root, "a"), "-instrument", "example.com/b/...", "./...")
	if code != exitError || !strings.Contains(stderr, "-instrument: not supported in a go.work workspace") {
		t.Errorf("-instrument in module a: exit code %d, want %d and the reason\n%s", code, exitError, stderr)
	}

	var out, errb strings.Builder
	if code := testMain(context.Background(), []string{"-C", filepath.Join(root, "a"), "./..."}, &out, &errb); code != exitError || !strings.Contains(errb.String(), "not supported by dowse test") {
		t.Errorf("dowse test in module a: exit code %d, want %d and the reason\n%s", code, exitError, errb.String())
	}

	t.Setenv("GOWORK", "off")
	code, _, stderr = gen(filepath.Join(root, "b"), "./...")
	if code != exitError || !strings.Contains(stderr, "example.com/a") {
		t.Errorf("in module b with GOWORK=off: exit code %d, want %d and the load error\n%s", code, exitError, stderr)
	}
}

// TestTrustRecursion: a run the branch bound stops while one function
// is deep on the call stack is reported as recursion (reason
// recursion-depth, with the function and its depth), not as a loop that
// hit max-branches; a loop still is max-branches.
func TestTrustRecursion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, hostile(t, "recursion"), "-json", "-cache=false", "-max-branches", "500", "-max-time", "3s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	type summary struct {
		Target     string
		Incomplete []string
		Recursion  *struct {
			Func  string
			Depth int
		}
	}
	got := map[string]summary{}
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var s summary
		if err := dec.Decode(&s); err != nil {
			t.Fatal(err)
		}
		if s.Target != "" {
			got[s.Target] = s
		}
	}
	d := got["Depth"]
	if !slices.Contains(d.Incomplete, "recursion-depth") || slices.Contains(d.Incomplete, "max-branches") ||
		d.Recursion == nil || d.Recursion.Func != "example.com/recursion.Depth" || d.Recursion.Depth < 32 {
		t.Errorf("Depth: incomplete %v, recursion %+v; want recursion-depth in example.com/recursion.Depth\n%s", d.Incomplete, d.Recursion, stdout)
	}
	s := got["Steps"]
	if !slices.Contains(s.Incomplete, "max-branches") || slices.Contains(s.Incomplete, "recursion-depth") || s.Recursion != nil {
		t.Errorf("Steps: incomplete %v, recursion %+v; want max-branches alone\n%s", s.Incomplete, s.Recursion, stdout)
	}
}

// TestTrustInstrumentVendored: -instrument of a dependency that the
// module builds from its vendor directory is refused with one line
// saying why and what to do, before anything is built or written.
func TestTrustInstrumentVendored(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "")
	code, _, stderr, dir := runGenIn(t, hostile(t, "vendored"), "-instrument", "example.com/dep/...", "-max-time", "2s", "./...")
	if code != exitError || !strings.Contains(stderr, "-instrument: not supported in vendor mode") || !strings.Contains(stderr, "GOFLAGS=-mod=mod") {
		t.Errorf("exit code %d, want %d and the reason\n%s", code, exitError, stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "p", "*dowse*")); len(files) > 0 {
		t.Errorf("files written: %v", files)
	}
}

// TestTrustLineDirective: a function that a //line directive maps to
// another file (generated parsers) gets its tests beside the Go file it
// is in, not a file named after the directive's.
func TestTrustLineDirective(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, hostile(t, "linedirective"), "-json", "-cache=false", "-max-time", "2s", "./...")
	if code != exitOK || !strings.Contains(stdout, `"target":"Pick"`) || strings.Contains(stdout, `"error"`) {
		t.Errorf("exit code %d, want %d and Pick written\n%s\n%s", code, exitOK, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "pick_dowse_auto_test.go")); err != nil {
		t.Errorf("not written: %v", err)
	}
}
