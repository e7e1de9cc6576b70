package gofuzz

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

const fuzzTest = `package p

import (
	"os"
	"testing"
)

func FuzzFirst(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := os.Stat("testdata/input.txt"); err != nil {
			t.Fatal("the package's testdata is not where the target runs:", err)
		}
		if len(b) > 1 && b[0] == 'x' {
			panic("x first")
		}
	})
}

func FuzzLevels(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		for i := 0; i < len(s) && i < 4; i++ {
			if s[i] == 'a'+byte(i) {
				n++
			}
		}
		_ = n
	})
}
`

func module(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs go test -fuzz")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod":               "module example.com/m\n\ngo 1.22\n",
		"p/p_test.go":          fuzzTest,
		"p/testdata/input.txt": "data\n",
	}
	for name, content := range files {
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(mod, "p")
}

var env = []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}

func TestRunFindsCrasher(t *testing.T) {
	dir := module(t)
	ctx := context.Background()
	f, err := Build(ctx, dir, "FuzzFirst", env)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seed := []byte("go test fuzz v1\n[]byte(\"ab\")\n")
	res, err := f.Run(ctx, [][]byte{seed}, 20*time.Second, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Output)
	}
	if len(res.Crashers) != 1 || !bytes.HasPrefix(res.Crashers[0], []byte("go test fuzz v1\n[]byte(\"x")) {
		t.Fatalf("crashers %q, want one input starting with x\n%s", res.Crashers, res.Output)
	}
	// The package directory is left as it was: no corpus written there.
	if _, err := os.Stat(filepath.Join(dir, "testdata", "fuzz")); !os.IsNotExist(err) {
		t.Errorf("the fuzzer wrote into the package's testdata/fuzz (%v)", err)
	}
}

func TestRunKeepsInteresting(t *testing.T) {
	dir := module(t)
	ctx := context.Background()
	f, err := Build(ctx, dir, "FuzzLevels", env)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := f.Run(ctx, nil, 3*time.Second, 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Output)
	}
	if len(res.Crashers) != 0 {
		t.Errorf("crashers %q, want none", res.Crashers)
	}
	if len(res.Interesting) == 0 {
		t.Fatalf("no interesting input in 3 s:\n%s", res.Output)
	}
	for _, in := range res.Interesting {
		if !bytes.HasPrefix(in, []byte("go test fuzz v1\nstring(")) {
			t.Errorf("interesting input %q is not a corpus file of the target", in)
		}
	}
}

func TestEndedAtFuzztime(t *testing.T) {
	const race = `fuzz: elapsed: 12s, execs: 120243 (9315/sec), new interesting: 116 (total: 144)
fuzz: elapsed: 13s, execs: 120243 (0/sec), new interesting: 116 (total: 144)
--- FAIL: FuzzParse (12.76s)
    context deadline exceeded
FAIL
`
	tests := []struct {
		name, output, target string
		want                 bool
	}{
		{"the race at the end of -fuzztime", race, "FuzzParse", true},
		{"the race, no trailing lines", "--- FAIL: FuzzParse (3.20s)\n    context deadline exceeded", "FuzzParse", true},
		{"another target's name", race, "FuzzParseRange", false},
		{"a failing input", "--- FAIL: FuzzParse (0.10s)\n    --- FAIL: FuzzParse (0.00s)\n        x_test.go:9: boom\n\n    Failing input written to testdata/fuzz/FuzzParse/abc\n", "FuzzParse", false},
		{"the deadline and another message", "--- FAIL: FuzzParse (3.20s)\n    context deadline exceeded\n    x_test.go:9: boom\nFAIL\n", "FuzzParse", false},
		{"a passing run", "fuzz: elapsed: 10s, execs: 5 (1/sec)\nPASS\n", "FuzzParse", false},
	}
	for _, tt := range tests {
		if got := endedAtFuzztime(tt.output, tt.target); got != tt.want {
			t.Errorf("%s: endedAtFuzztime = %v, want %v", tt.name, got, tt.want)
		}
	}
}
