package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A receiver whose state cannot be written out (it holds a func) is
// observed after the call through its own observer methods: the rows of
// Ring.Add assert r.Len(), so that a change of what Add does (it no
// longer drops the oldest value) makes the generated tests fail.
func TestGeneralObservers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "observers"), "-cache=false", "-max-time", "10s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d\n%s%s", code, stdout, stderr)
	}
	file := readTree(t, dir)["ring_dowse_auto_test.go"]
	if !strings.Contains(file, "if got := tt.r.Len(); got != tt.wantRLen {") {
		t.Fatalf("Ring.Add's rows do not assert r.Len():\n%s", file)
	}
	generatedTestsPass(t, dir)

	// The mutant: Add never drops a value.
	src := filepath.Join(dir, "ring.go")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	mutant := strings.Replace(string(data), "len(r.vals) == r.size", "len(r.vals) == -1", 1)
	if mutant == string(data) {
		t.Fatal("the mutation did not apply")
	}
	if err := os.WriteFile(src, []byte(mutant), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-run", "TestDowseRing_Add$", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("the generated tests pass on the mutant:\n%s", out)
	}
}
