package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// hostile reads the module of testdata/hostile/<name>.
func hostile(t *testing.T, name string) map[string]string {
	t.Helper()
	return readTree(t, filepath.Join("..", "..", "testdata", "hostile", name))
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
	if !strings.Contains(stdout, "test: TestDowsePutMaxFailures2") {
		t.Errorf("the summary does not name the failures' test TestDowsePutMaxFailures2:\n%s", stdout)
	}
	generatedTestsPass(t, dir)
}
