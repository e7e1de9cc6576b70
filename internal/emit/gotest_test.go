package emit

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// The tests in this file write generated files into a temporary module and
// run the go command on them.

const modPkg = `package p

type Kind int

const (
	Invalid Kind = iota
	Equilateral
	Isosceles
	Scalene
)

// Classify has a planted bug: it misses a == c.
func Classify(a, b, c int) Kind {
	if a <= 0 || b <= 0 || c <= 0 {
		return Invalid
	}
	if a == b && b == c {
		return Equilateral
	}
	if a == b || b == c {
		return Isosceles
	}
	return Scalene
}

type Point struct {
	X, Y  int
	label string
}

// First panics on an empty slice.
func First(xs []int) int {
	return xs[0]
}
`

const modPut = `package p

import "testing"

func PutIsoscelesFirst(t *testing.T, a, c int) {
	if a <= 0 || c <= 0 || a == c || 2*a <= c {
		t.Skip("assumes an isosceles triangle")
	}
	if k := Classify(a, a, c); k != Isosceles {
		t.Errorf("Classify(%d, %d, %d) = %d, want Isosceles", a, a, c, k)
	}
}

func PutIsoscelesOuter(t *testing.T, a, c int) {
	if a <= 0 || c <= 0 || a == c || 2*a <= c {
		t.Skip("assumes an isosceles triangle")
	}
	if k := Classify(a, c, a); k != Isosceles {
		t.Errorf("Classify(%d, %d, %d) = %d, want Isosceles", a, c, a, k)
	}
}

func PutAll(t *testing.T, s string, b []byte, arr [2]uint8, p Point, k Kind, r rune, xs ...int16) {
	if len(b) > 2 || len(xs) > 2 || p.label == "never" {
		t.Fatal("impossible")
	}
}

func PutIndex(t *testing.T, xs []int) {
	_ = First(xs)
}

func FuzzRev(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, s string, n int, u uint8, r rune, ok bool, i64 int64, u64 uint64, i8 int8, i16 int16, u16 uint16, u32 uint32, ui uint) {
		if n == 42 {
			t.Fatal("n is 42")
		}
	})
}
`

func num(x any) json.Number { return json.Number(fmt.Sprint(x)) }

func goCommand(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	return gocmd
}

// runGo runs the go command in dir and returns its combined output.
func runGo(t *testing.T, gocmd, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(gocmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-mod=mod", ReproduceEnv+"=")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// row is a test row: its inputs as for values.
type row struct {
	status  rt.Status
	in      []any
	msg     string
	panicAt string
}

// tempModule writes the module of modPkg and modPut and returns a File
// for put_test.go without targets and a function building them.
func tempModule(t *testing.T) (File, func(name string, rows ...row) Target) {
	mod := t.TempDir()
	dir := filepath.Join(mod, "p")
	writeFiles(t, mod, map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"p/p.go":        modPkg,
		"p/put_test.go": modPut,
	})
	u := newUniverse()
	u.load(t, dir, "example.com/m/p")
	target := func(name string, rows ...row) Target {
		params, variadic, fuzz := u.params(t, "example.com/m/p", name)
		tg := Target{Name: name, Fuzz: fuzz, Params: params, Variadic: variadic, Layout: layout(t, params, 2, u.pkgs["example.com/m/p"])}
		leaves := leavesOf(t, tg.Layout)
		for _, r := range rows {
			for i, x := range r.in {
				switch x.(type) {
				case int, int32, uint64:
					r.in[i] = num(x)
				}
			}
			out := Row{Inputs: values(t, leaves, r.in), Status: r.status, PanicAt: r.panicAt, PathCondition: "some condition"}
			if r.msg != "" {
				out.Messages = []string{r.msg}
			}
			tg.Rows = append(tg.Rows, out)
		}
		return tg
	}
	return File{Pkg: u.pkgs["example.com/m/p"], Dir: dir, SourceFile: "put_test.go"}, target
}

func TestGeneratedFileRuns(t *testing.T) {
	gocmd := goCommand(t)
	f, target := tempModule(t)
	dir := f.Dir
	f.Targets = []Target{
		target("PutIsoscelesFirst",
			row{status: rt.StatusSkip, in: []any{0, 0}},
			row{status: rt.StatusPass, in: []any{2, 3}}),
		target("PutIsoscelesOuter",
			row{status: rt.StatusFail, in: []any{2, 3}, msg: "Classify(2, 3, 2) = 3, want Isosceles"}),
		target("PutAll",
			row{status: rt.StatusPass, in: []any{"a\"b`", 2, 0, 255, 7, 8, 1, -2, "lbl", 2, '€', 2, -1, 32767}},
			row{status: rt.StatusPass, in: []any{"", 0, 0, 0, 0, 0, 0, 0, "", 0, 0, 0, 0, 0}},
			row{status: rt.StatusPass, in: []any{"\xff\x00", 1, 'h', 0, 255, 255, -9, 0, "\n", 77, -1, 1, 5, 0}}),
		target("PutIndex",
			row{status: rt.StatusPass, in: []any{1, 5, 0}},
			row{status: rt.StatusPanic, in: []any{0, 0, 0}, msg: "runtime error: index out of range [0] with length 0", panicAt: "p.go:31"},
			// A panic that no longer happens (the code was fixed): the case passes.
			row{status: rt.StatusPanic, in: []any{1, 3, 0}, msg: "runtime error: index out of range [0] with length 0", panicAt: "p.go:31"}),
		target("FuzzRev",
			row{status: rt.StatusPass, in: []any{2, 0, 255, "s", 1, 200, 'x', true, -5, uint64(1 << 63), -128, -3, 65535, 4294967295, 9}},
			row{status: rt.StatusPass, in: []any{0, 0, 0, "", 0, 0, -1, false, 0, 0, 0, 0, 0, 0, 0}},
			row{status: rt.StatusFail, in: []any{1, 'a', 0, "\"", 42, 0, 0x10ffff, false, 0, 0, 0, 0, 0, 0, 0}, msg: "n is 42"}),
	}
	res, err := Write(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %v", res.Files)

	if out, err := runGo(t, gocmd, dir, nil, "vet", "."); err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
	out, err := runGo(t, gocmd, dir, nil, "test", "-v", "-count=1", ".")
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	for _, want := range []string{
		"--- PASS: TestDowsePutIsoscelesFirst/a=2,c=3",
		"--- SKIP: TestDowsePutIsoscelesOuterFailures/fail:a=2,c=3",
		"dowse found: fail: Classify(2, 3, 2) = 3, want Isosceles",
		"--- SKIP: TestDowsePutIndexFailures/panic:xs=nil",
		"--- PASS: TestDowsePutIndexFailures/panic:xs=3",
		"--- PASS: TestDowsePutAll/",
		"--- PASS: FuzzRev/dowse-",
		"--- SKIP: FuzzDowseRevFailures",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("go test -v output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "--- PASS: FuzzRev/dowse-"); n != 2 {
		t.Errorf("go test ran %d dowse corpus entries of FuzzRev, want 2:\n%s", n, out)
	}

	// The panicking case ran up to its panic: go test -cover counts
	// First's statement (line 32 of modPkg).
	profile := filepath.Join(t.TempDir(), "cover.out")
	if out, err := runGo(t, gocmd, dir, nil, "test", "-count=1", "-run", "^TestDowsePutIndexFailures$/^panic:xs=nil$", "-coverprofile", profile, "."); err != nil {
		t.Fatalf("go test -cover: %v\n%s", err, out)
	}
	cover, err := os.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)/p\.go:32\.\d+,\d+\.\d+ 1 1$`).Match(cover) {
		t.Errorf("the skipped panicking case did not run First's statement:\n%s", cover)
	}

	// The reproduce hints select exactly the failing case, which fails.
	hints := regexp.MustCompile(`reproduce: DOWSE_REPRODUCE=1 go test -run '([^']*)'`).FindAllStringSubmatch(out, -1)
	if len(hints) != 3 {
		t.Fatalf("found %d reproduce hints, want 3:\n%s", len(hints), out)
	}
	for _, h := range hints {
		out, err := runGo(t, gocmd, dir, []string{ReproduceEnv + "=1"}, "test", "-v", "-count=1", "-run", h[1], ".")
		if err == nil {
			t.Errorf("with %s=1, go test -run %q passed:\n%s", ReproduceEnv, h[1], out)
		}
		if n := strings.Count(out, "--- FAIL: "); n != 2 && !strings.Contains(out, "panic:") {
			t.Errorf("go test -run %q: want exactly one failing case:\n%s", h[1], out)
		}
	}
	out, err = runGo(t, gocmd, dir, []string{ReproduceEnv + "=1"}, "test", "-v", "-count=1", "-run", "^FuzzDowseRevFailures$", ".")
	if err == nil || !strings.Contains(out, "n is 42") {
		t.Errorf("with %s=1, FuzzDowseRevFailures should fail with the found bug: %v\n%s", ReproduceEnv, err, out)
	}
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}
