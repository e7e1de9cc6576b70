package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// generatedFile reads the generated file name of dir.
func generatedFile(t *testing.T, dir, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// dowseTestCover runs dowse test -cover on the packages of dir and
// returns its output.
func dowseTestCover(t *testing.T, dir string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := testMain(context.Background(), []string{"-C", dir, "-count=1", "-cover", "./..."}, &out, &errb); code != 0 {
		t.Fatalf("dowse test: exit %d\n%s%s", code, out.String(), errb.String())
	}
	return out.String()
}

// The errors of isolated calls are a choice among what the code tells
// apart: testdata/general/errfile reads a file through os.ReadFile and
// os.Open and branches on errors.Is(err, fs.ErrNotExist), errors.As
// with a *fs.PathError and err == io.EOF in a read loop, and a store's
// errors on switch err { case ErrLocked: } and errors.Is through
// wrapping. The isolated rows name fs.ErrNotExist, a *fs.PathError and
// io.EOF, a mock's row wraps the sentinel with fmt.Errorf, no typed nil
// is offered for an isolated result (no finding), and dowse test covers
// every statement (90.3% when isolated errors were errors.New alone).
func TestGeneralErrorChoices(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "errfile"), "-json", "-cache=false", "-max-time", "60s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitOK, stdout, stderr)
	}
	iso := generatedFile(t, dir, "config_dowse_auto_isolated_test.go")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`\{\[\]byte\{[^}]*\}, fs\.ErrNotExist\}`),
		regexp.MustCompile(`&fs\.PathError\{Op: "[^"]*", Path: "[^"]*", Err: `),
		regexp.MustCompile(`\{-?\d+, io\.EOF\}`),
	} {
		if !want.MatchString(iso) {
			t.Errorf("the isolated file has no row matching %s\n%s", want, iso)
		}
	}
	plain := generatedFile(t, dir, "config_dowse_auto_test.go")
	if !strings.Contains(plain, `fmt.Errorf("wrapped: %w", ErrLocked)`) {
		t.Errorf("no mock row returns ErrLocked wrapped by fmt.Errorf\n%s", plain)
	}
	generatedTestsPass(t, dir)
	if out := dowseTestCover(t, dir); !strings.Contains(out, "coverage: 100.0% of statements") {
		t.Errorf("dowse test -cover: not every statement covered\n%s", out)
	}
}
