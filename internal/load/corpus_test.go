package load

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseCorpusFile(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []any
		ok   bool
	}{
		{"go test fuzz v1\nint64(-3)\nuint8(7)\nbool(true)\nstring(\"a\\nb\")\n[]byte(\"\\x00\\xff\")\n", []any{int64(-3), uint64(7), true, "a\nb", []byte{0, 0xff}}, true},
		{"go test fuzz v1\nrune('x')\nbyte('\\'')\nint(0x10)\nuint64(18446744073709551615)\n", []any{int64('x'), uint64('\''), int64(16), uint64(18446744073709551615)}, true},
		{"go test fuzz v1\nfloat64(1.5)\nfloat32(-2)\nfloat64(math.Float64frombits(0x7ff0000000000000))\n", []any{1.5, -2.0, math.Inf(1)}, true},
		{"go test fuzz v1\nmath.Float64frombits(0x3ff8000000000000)\n", nil, false},
		{"go test fuzz v1\ncomplex128(1)\n", nil, false},
		{"not a corpus file\nint(1)\n", nil, false},
		{"go test fuzz v1\nuint8(-1)\n", nil, false},
	} {
		got, err := ParseCorpusFile([]byte(c.in))
		if (err == nil) != c.ok || c.ok && !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseCorpusFile(%q) = %#v, %v; want %#v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestReadCorpus(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"b":      "go test fuzz v1\nstring(\"second\")\n",
		"a":      "go test fuzz v1\nstring(\"first\")\n",
		"broken": "go test fuzz v1\ncomplex64(2)\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadCorpus(dir)
	if err != nil || !reflect.DeepEqual(got, [][]any{{"first"}, {"second"}}) {
		t.Errorf("ReadCorpus = %v, %v; want the two string seeds in name order", got, err)
	}
	if got, err := ReadCorpus(filepath.Join(dir, "missing")); got != nil || err != nil {
		t.Errorf("ReadCorpus of a missing directory = %v, %v", got, err)
	}
}
