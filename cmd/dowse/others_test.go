package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// fileProxy writes a file-system module proxy (GOPROXY=file://...) into
// dir serving the module in src at version.
func fileProxy(t *testing.T, dir, src, path, version string) {
	t.Helper()
	esc, err := module.EscapePath(path)
	if err != nil {
		t.Fatal(err)
	}
	v := filepath.Join(dir, filepath.FromSlash(esc), "@v")
	if err := os.MkdirAll(v, 0o777); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(v, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("list", []byte(version+"\n"))
	write(version+".info", []byte(`{"Version":"`+version+`"}`))
	write(version+".mod", gomod)
	f, err := os.Create(filepath.Join(v, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromDir(f, module.Version{Path: path, Version: version}, src); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestInstrumentOtherModule explores a PUT whose branches are decided in
// a package of another module, which comes from a module proxy into the
// module cache as real dependencies do. Without -instrument the call
// concretizes the input: no failure, not exhaustive. With -instrument the
// package is instrumented in a copy (the module cache and the user's
// files untouched) and the failing input found, exhaustively.
func TestInstrumentOtherModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	fixture := filepath.Join("..", "..", "testdata", "othermod")
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	fileProxy(t, proxy, filepath.Join(fixture, "lib"), "example.com/lib", "v1.0.0")
	cache := filepath.Join(tmp, "modcache")
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOMODCACHE", cache)
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-modcacherw")
	t.Setenv("GOTOOLCHAIN", "local")

	app := readTree(t, filepath.Join(fixture, "app"))
	// go.sum, as go mod tidy writes it for the user.
	tidy := t.TempDir()
	for name, content := range app {
		if err := os.WriteFile(filepath.Join(tidy, name), []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = tidy
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod tidy: %v\n%s", err, out)
	}
	sum, err := os.ReadFile(filepath.Join(tidy, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	app["go.sum"] = string(sum)
	libDir := filepath.Join(cache, "example.com", "lib@v1.0.0")
	libBefore := treeFiles(t, libDir)

	type summary struct {
		Target     string `json:"target"`
		Exhaustive bool   `json:"exhaustive"`
		Failures   []struct {
			Input string `json:"input"`
		} `json:"failures"`
	}
	one := func(stdout string) summary {
		t.Helper()
		var s summary
		dec := json.NewDecoder(strings.NewReader(stdout))
		if err := dec.Decode(&s); err != nil || dec.More() {
			t.Fatalf("want one summary (%v)\n%s", err, stdout)
		}
		return s
	}

	// Without -instrument: check.Kind is not followed.
	code, stdout, stderr, _ := runGenIn(t, app, "-json", "-max-len", "4", "-max-time", "20s", "-mutate=false", ".")
	if code != exitOK {
		t.Fatalf("without -instrument: exit code %d, want 0\n%s", code, stderr)
	}
	if s := one(stdout); s.Exhaustive || len(s.Failures) != 0 {
		t.Errorf("without -instrument: exhaustive %v, %d failures; want not exhaustive, none", s.Exhaustive, len(s.Failures))
	}

	code, stdout, stderr, dir := runGenIn(t, app, "-json", "-max-len", "4", "-max-time", "60s",
		"-instrument", "example.com/lib/...,example.com/nothing/...", ".")
	if code != exitFindings {
		t.Fatalf("with -instrument: exit code %d, want %d\n%s", code, exitFindings, stderr)
	}
	s := one(stdout)
	if !s.Exhaustive || len(s.Failures) != 1 || !strings.HasPrefix(s.Failures[0].Input, `code="T-`) {
		t.Errorf("with -instrument: exhaustive %v, failures %+v; want exhaustive, one tool code", s.Exhaustive, s.Failures)
	}
	if !strings.Contains(stderr, "-instrument example.com/nothing/... matches no package") {
		t.Errorf("no warning for the pattern that matches nothing:\n%s", stderr)
	}

	// The user's files are as they were, plus the generated test, which
	// passes under plain go test; the module cache is untouched.
	after := readTree(t, dir)
	for name, content := range app {
		if after[name] != content {
			t.Errorf("%s changed", name)
		}
	}
	if _, ok := after["app_dowse_test.go"]; !ok || len(after) != len(app)+1 {
		t.Errorf("files after gen: %d, want the %d given and app_dowse_test.go", len(after), len(app))
	}
	if got := treeFiles(t, libDir); len(got) != len(libBefore) {
		t.Errorf("module cache: %d files, had %d", len(got), len(libBefore))
	} else {
		for name, h := range libBefore {
			if got[name] != h {
				t.Errorf("module cache: %s changed", name)
			}
		}
	}
	generatedTestsPass(t, dir)
}
