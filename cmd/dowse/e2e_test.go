package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readTree reads the files below dir (relative path to content).
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

type summary struct {
	Target     string            `json:"target"`
	Paths      int               `json:"paths"`
	Exhaustive bool              `json:"exhaustive"`
	Failures   []json.RawMessage `json:"failures"`
}

func summaries(t *testing.T, out string) map[string]summary {
	t.Helper()
	res := map[string]summary{}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var s summary
		if err := dec.Decode(&s); err != nil {
			break
		}
		res[s.Target] = s
	}
	return res
}

// TestMagicValues runs dowse gen on the magic-value suite: every magic
// branch must be found (each fuzz target fails there), every target
// explored exhaustively, and the generated corpus must cover the package
// fully when the failing inputs run too.
func TestMagicValues(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "magic")), "-json", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s", code, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"FuzzSeed", "FuzzOverflows", "FuzzWord", "FuzzHeader", "FuzzChecksum"} {
		s, ok := got[target]
		if !ok {
			t.Errorf("%s: no summary", target)
			continue
		}
		if len(s.Failures) != 1 || !s.Exhaustive {
			t.Errorf("%s: %d failures, exhaustive %v; want the magic branch found, exhaustively", target, len(s.Failures), s.Exhaustive)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-cover", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DOWSE_REPRODUCE=1")
	out, _ := cmd.CombinedOutput() // the failing inputs fail
	m := regexp.MustCompile(`coverage: ([0-9.]+)% of statements`).FindSubmatch(out)
	if m == nil || string(m[1]) != "100.0" {
		t.Errorf("coverage of the generated corpus: %s\n%s", m, out)
	}
}

// TestExampleBank runs dowse gen on the README's example and checks that
// the generated tests pass under plain go test and that the planted
// overflow bug is found.
func TestExampleBank(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "examples", "bank")), "-json", "./...")
	if code != 3 && code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	got := summaries(t, stdout)
	if s := got["PutWithdrawKeepsLimit"]; len(s.Failures) == 0 {
		t.Errorf("the overflow in Withdraw was not found: %s", stdout)
	}
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generated tests fail under go test: %v\n%s", err, out)
	}
	// A second run with the same seed writes byte-identical files.
	before := readTree(t, dir)
	var out, errb bytes.Buffer
	if code := genMain(context.Background(), []string{"-C", dir, "-json", "./..."}, &out, &errb); code != 3 && code != 0 {
		t.Fatalf("second run: exit code %d\n%s", code, errb.String())
	}
	after := readTree(t, dir)
	for name, content := range before {
		if after[name] != content {
			t.Errorf("%s changed on the second run", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files after the second run, %d before", len(after), len(before))
	}
}
