package build

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// A panicking subtest ends the test binary; runFailing runs it again on
// the tests that did not finish, without the subtests that panicked, and
// finds every failing subtest.
func TestRunFailingAfterPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/v\n\ngo 1.22\n",
		"v_test.go": `package v

import "testing"

func TestA(t *testing.T) {
	for _, n := range []string{"ok", "boom", "late", "boom2"} {
		t.Run(n, func(t *testing.T) {
			switch n {
			case "boom", "boom2":
				panic(n)
			case "late":
				t.Error("late")
			}
		})
	}
}

func TestB(t *testing.T) {
	t.Run("p", func(t *testing.T) { panic("p") })
	t.Run("q", func(t *testing.T) {})
}

func TestC(t *testing.T) {
	t.Run("bad", func(t *testing.T) { t.Fail() })
	t.Run("good", func(t *testing.T) {})
}

func TestD(t *testing.T) {}
`,
	}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "v.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	failing, err := runFailing(context.Background(), bin, dir, nil, "example.com/v", []string{"TestA", "TestB", "TestC", "TestD"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"TestA": {"", "boom", "boom2", "late"},
		"TestB": {"", "p"},
		"TestC": {"", "bad"},
	}
	for test, subs := range want {
		got := slices.Sorted(slices.Values(failing[test]))
		if !slices.Equal(got, subs) {
			t.Errorf("%s: failing %q, want %q", test, got, subs)
		}
	}
	if len(failing) != len(want) {
		t.Errorf("failing %v, want the tests of %v", failing, want)
	}
}
