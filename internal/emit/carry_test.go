package emit

import (
	"os"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

// Failing rows of the existing file that a new Write does not have are
// carried over, unless File.Drop names them.
func TestCarryFailures(t *testing.T) {
	f, target := tempModule(t)
	f.Targets = []Target{target("PutIsoscelesOuter",
		row{status: rt.StatusPass, in: []any{2, 2}},
		row{status: rt.StatusFail, in: []any{2, 3}, msg: "Classify(2, 3, 2) = 3, want Isosceles"},
		row{status: rt.StatusPanic, in: []any{5, 6}, msg: "boom", panicAt: "p.go:3"})}
	if _, err := Write(f, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		what    string
		rows    []row
		drop    []string
		carried string   // Result.Carried of the target, joined
		want    []string // case names in the failures table
		absent  []string
	}{
		{"no failure found", []row{{status: rt.StatusPass, in: []any{2, 2}}}, nil,
			"fail:a=2,c=3 panic:a=5,c=6", []string{`"fail:a=2,c=3"`, `"panic:a=5,c=6"`, "panics: true", "// fail: Classify(2, 3, 2)"}, nil},
		{"one found again", []row{{status: rt.StatusFail, in: []any{2, 3}, msg: "again"}}, nil,
			"panic:a=5,c=6", []string{`"fail:a=2,c=3"`, `"panic:a=5,c=6"`, `"fail: again"`}, []string{"Classify(2, 3, 2)"}},
		{"one dropped", []row{{status: rt.StatusPass, in: []any{2, 2}}}, []string{"panic:a=5,c=6"},
			"fail:a=2,c=3", []string{`"fail:a=2,c=3"`}, []string{`"panic:a=5,c=6"`, "panics"}},
	} {
		t.Run(tt.what, func(t *testing.T) {
			g := f
			g.Targets = []Target{target("PutIsoscelesOuter", tt.rows...)}
			if tt.drop != nil {
				g.Drop = map[string][]string{"PutIsoscelesOuter": tt.drop}
			}
			res, err := Write(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(res.Carried["PutIsoscelesOuter"], " "); got != tt.carried {
				t.Errorf("carried %q, want %q", got, tt.carried)
			}
			src, err := os.ReadFile(res.Files[0])
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(src), w) {
					t.Errorf("no %s in\n%s", w, src)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(string(src), a) {
					t.Errorf("%s in\n%s", a, src)
				}
			}
		})
	}
}
