package archdoc

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestArchitecture checks the module's own imports against the table of
// docs/architecture.md: an import the document does not draw, or a drawn
// one the code no longer makes, fails.
func TestArchitecture(t *testing.T) {
	code, err := ModuleGraph(context.Background(), filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := DocGraph(doc)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	if d := Diff(code, drawn); len(d) > 0 {
		t.Errorf("docs/architecture.md, section %q, and the code differ:\n%s", Section, strings.Join(d, "\n"))
	}
}

// TestModule runs the check on a module of its own: the graph go list
// gives (test files' imports left out), the document's table (other
// tables left out) and the differences, against golden files.
func TestModule(t *testing.T) {
	dir := filepath.Join("testdata", "mod")
	code, err := ModuleGraph(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(dir, "doc.md"))
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := DocGraph(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		golden string
		lines  []string
	}{
		{"code.golden", render(code)},
		{"doc.golden", render(drawn)},
		{"diff.golden", Diff(code, drawn)},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tt.golden), strings.Join(tt.lines, "\n")+"\n", *update)
		})
	}
}

// render writes a graph one package a line, sorted.
func render(g Graph) []string {
	var lines []string
	for pkg, deps := range g {
		lines = append(lines, pkg+": "+strings.Join(deps, " "))
	}
	sort.Strings(lines)
	return lines
}

func TestDocGraphErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"no section", "# x\n\n## Packages\n", "no section"},
		{"two packages", Section + "\n\n| `a` `b` | `c` |\n", "names 2 packages"},
		{"second row", Section + "\n\n| `a` | |\n| `a` | `b` |\n", "second row"},
		{"one cell", Section + "\n\n| `a` |\n", "a package and its imports"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DocGraph([]byte(tt.doc))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
