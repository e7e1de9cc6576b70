package emit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

func TestGeneratedName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"put_test.go", "put_dowse_test.go"},
		{"foo_bar_test.go", "foo_bar_dowse_test.go"},
		{"io_linux_test.go", "io_dowse_linux_test.go"},
		{"io_linux_amd64_test.go", "io_dowse_linux_amd64_test.go"},
		{"io_arm64_test.go", "io_dowse_arm64_test.go"},
		{"linux_test.go", "linux_dowse_test.go"},
		{"x_test_test.go", "x_test_dowse_test.go"},
		{"stack.go", "stack_dowse_auto_test.go"},
		{"io_linux.go", "io_dowse_auto_linux_test.go"},
	} {
		got, err := generatedName(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("generatedName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"put.txt", "dir/put_test.go", ""} {
		if _, err := generatedName(bad); err == nil {
			t.Errorf("generatedName(%q) succeeded", bad)
		}
	}
}

func TestFormatUint(t *testing.T) {
	for _, tc := range []struct {
		in   uint64
		want string
	}{
		{0, "0"}, {255, "255"}, {65535, "65535"}, {100000, "100000"},
		{1<<32 - 1, "0xffffffff"}, {1 << 63, "0x8000000000000000"},
		{1<<64 - 1, "0xffffffffffffffff"}, {123456789012, "123456789012"},
	} {
		if got := formatUint(tc.in); got != tc.want {
			t.Errorf("formatUint(%d) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestQuoteString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"abc", `"abc"`},
		{`a"b`, "`a\"b`"},
		{`C:\dir`, "`C:\\dir`"},
		{"a\"\n", `"a\"\n"`},
		{"a\"`", "\"a\\\"`\""},
		{"\xff\"", `"\xff\""`},
	} {
		if got := quoteString(tc.in); got != tc.want {
			t.Errorf("quoteString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// A generated file or corpus file of dowse in the way is replaced; a file
// of someone else's is an error and left alone; stale dowse files are
// removed, other files kept.
func TestWriteSafety(t *testing.T) {
	f, target := tempModule(t)
	f.Targets = []Target{target("PutIndex", row{status: rt.StatusPass, in: []any{1, 5, 0}})}
	gen := filepath.Join(f.Dir, "put_dowse_test.go")

	// Someone else's file of that name.
	mine := "package p\n\n// hand-written\n"
	writeFiles(t, f.Dir, map[string]string{"put_dowse_test.go": mine})
	if _, err := Write(f, Options{}); err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Fatalf("Write over a hand-written file: err = %v", err)
	}
	if b, _ := os.ReadFile(gen); string(b) != mine {
		t.Fatalf("hand-written file changed:\n%s", b)
	}

	// A stale generated file is replaced.
	writeFiles(t, f.Dir, map[string]string{"put_dowse_test.go": Header + "\n\npackage p\n"})
	res, err := Write(f, Options{})
	if err != nil || len(res.Changed) != 1 {
		t.Fatalf("Write: %v, changed %v", err, res.Changed)
	}
	if b, _ := os.ReadFile(gen); !strings.Contains(string(b), "TestDowsePutIndex") {
		t.Fatalf("generated file not replaced:\n%s", b)
	}

	// With no rows left, the generated file is removed; a fuzz target's
	// stale corpus entries are removed, others kept.
	corpus := filepath.Join(f.Dir, "testdata", "fuzz", "FuzzRev")
	writeFiles(t, corpus, map[string]string{
		"dowse-aaaaaaaaaaaaaaaa": "go test fuzz v1\nint(1)\n",
		"dowse-handwritten":      "my notes\n",
		"0123456789abcdef":       "go test fuzz v1\nint(2)\n",
	})
	f.Targets = []Target{target("PutIndex"), target("FuzzRev")}
	res, err = Write(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(gen); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("generated file not removed: %v", err)
	}
	left := readTree(t, corpus)
	if _, ok := left["dowse-aaaaaaaaaaaaaaaa"]; ok || len(left) != 2 {
		t.Errorf("corpus after Write: %v", left)
	}
	if len(res.Removed) != 2 {
		t.Errorf("removed %v, want the generated file and one corpus file", res.Removed)
	}
	if entries, _ := os.ReadDir(f.Dir); len(entries) != 3 { // p.go, put_test.go, testdata
		t.Errorf("directory holds %d entries, want 3", len(entries))
	}
}

// Inputs that do not fit the leaves are an error for the target, and the
// other targets are still written.
func TestTargetErrors(t *testing.T) {
	f, target := tempModule(t)
	good := target("PutIndex", row{status: rt.StatusPass, in: []any{1, 5, 0}})
	short := target("PutIndex")
	short.Name = "PutShort"
	short.Rows = []Row{{Inputs: []rt.Value{{Bits: 1}}, Status: rt.StatusPass}}
	badLen := target("PutIndex")
	badLen.Name = "PutBadLen"
	badLen.Rows = []Row{{Inputs: []rt.Value{{Bits: 7}, {}, {}}, Status: rt.StatusPass}}
	wrongKind := target("PutIndex")
	wrongKind.Name = "PutWrongKind"
	wrong := *wrongKind.Layout
	wrong.Shapes = append([]rt.Shape(nil), wrong.Shapes...)
	for i, s := range wrong.Shapes {
		if s.Kind == rt.ShapeScalar && s.Type == "int" {
			wrong.Shapes[i].K = rt.KString
		}
	}
	wrongKind.Layout = &wrong
	wrongKind.Rows = []Row{{Inputs: make([]rt.Value, 3), Status: rt.StatusPass}}
	f.Targets = []Target{short, badLen, wrongKind, good}

	res, err := Write(f, Options{})
	var terr *TargetError
	if !errors.As(err, &terr) {
		t.Fatalf("Write: err = %v, want a *TargetError", err)
	}
	for _, want := range []string{"PutShort: row 0: row has 1 inputs for 3 leaves", "PutBadLen: row 0: len(xs) = 7 outside [0, 2]", "PutWrongKind: row 0: xs[0]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if len(res.Files) != 1 {
		t.Fatalf("files %v, want the generated file", res.Files)
	}
	b, _ := os.ReadFile(res.Files[0])
	if !strings.Contains(string(b), "func TestDowsePutIndex(") || strings.Contains(string(b), "PutShort") {
		t.Errorf("generated file:\n%s", b)
	}
}

func TestWriteDeterministic(t *testing.T) {
	var outs []map[string]string
	for range 2 {
		f, target := tempModule(t)
		f.Targets = []Target{
			target("PutIndex", row{status: rt.StatusPass, in: []any{1, 5, 0}}, row{status: rt.StatusPanic, in: []any{0, 0, 0}, msg: "boom"}),
			target("FuzzRev",
				row{status: rt.StatusPass, in: []any{2, 0, 255, "s", 1, 200, 'x', true, -5, 3, -128, -3, 65535, 4294967295, 9}},
				row{status: rt.StatusFail, in: []any{0, 0, 0, "", 42, 0, 0, false, 0, 0, 0, 0, 0, 0, 0}, msg: "n is 42"}),
		}
		if _, err := Write(f, Options{}); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, readTree(t, f.Dir))
	}
	if len(outs[0]) != len(outs[1]) {
		t.Fatalf("different file sets: %d vs %d", len(outs[0]), len(outs[1]))
	}
	for name, content := range outs[0] {
		if outs[1][name] != content {
			t.Errorf("%s differs between runs", name)
		}
	}
}
