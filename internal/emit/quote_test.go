package emit

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

func TestClean(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a\x00b", `a\x00b`},
		{"\xff", `\xff`},
		{"a\xe2\x82b", `a\xe2\x82b`},
		{"\ufeffbom", `\ufeffbom`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"  tab\tand\nline  ", "tab and line"},
		{"€ ok", "€ ok"},
	} {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Failure messages with bytes no Go source may hold (NUL, invalid UTF-8,
// a byte order mark) are written escaped; the file parses and the other
// targets' rows are written.
func TestWriteHostileMessages(t *testing.T) {
	for _, msg := range []string{"a\x00b", string([]byte{0xff}), "\ufeff", "\x00\xff\ufeff`\"\\%"} {
		t.Run(strings.ToValidUTF8(msg, "?"), func(t *testing.T) {
			f, target := tempModule(t)
			f.Targets = []Target{
				target("PutIsoscelesOuter",
					row{status: rt.StatusPass, in: []any{2, 2}},
					row{status: rt.StatusFail, in: []any{2, 3}, msg: msg}),
				target("PutIndex", row{status: rt.StatusPass, in: []any{1, 5, 0}}),
			}
			res, err := Write(f, Options{})
			if err != nil {
				t.Fatalf("Write: %v", err)
			}
			if len(res.Files) != 1 {
				t.Fatalf("files %v", res.Files)
			}
			src, err := os.ReadFile(res.Files[0])
			if err != nil {
				t.Fatal(err)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), res.Files[0], src, parser.AllErrors); err != nil {
				t.Fatalf("the generated file does not parse: %v\n%s", err, src)
			}
			for _, want := range []string{"func TestDowsePutIndex(", "func TestDowsePutIsoscelesOuter(", "func TestDowsePutIsoscelesOuterFailures(", "// fail: " + clean(msg)} {
				if !strings.Contains(string(src), want) {
					t.Errorf("no %q in\n%s", want, src)
				}
			}
		})
	}
}
