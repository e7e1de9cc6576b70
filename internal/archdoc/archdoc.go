// Package archdoc checks the imports between the module's packages
// against the table of allowed imports in docs/architecture.md, so that
// the document and the code draw the same layering.
package archdoc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"sort"
	"strings"
)

// Graph maps a package, named by its path inside the module ("rt",
// "internal/load"), to the module's packages it imports, sorted.
type Graph map[string][]string

// Section is the heading of the part of docs/architecture.md that holds
// the table of imports.
const Section = "## Imports between packages"

// ModuleGraph lists the packages of the module rooted at dir with
// `go list` and returns the imports each makes of the others, test files
// left out (tests may import any package).
func ModuleGraph(ctx context.Context, dir string) (Graph, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f",
		"{{.Module.Path}} {{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list in %s: %w: %s", dir, err, stderr.Bytes())
	}
	g := Graph{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, fmt.Errorf("go list in %s: unexpected line %q", dir, line)
		}
		mod := f[0]
		pkg, ok := inModule(mod, f[1])
		if !ok {
			return nil, fmt.Errorf("go list in %s: package %s outside module %s", dir, f[1], mod)
		}
		deps := []string{}
		for _, imp := range f[2:] {
			if p, ok := inModule(mod, imp); ok {
				deps = append(deps, p)
			}
		}
		sort.Strings(deps)
		g[pkg] = deps
	}
	return g, nil
}

// inModule returns the path of pkg inside module mod, "." for the
// module's root package, and whether pkg belongs to mod.
func inModule(mod, pkg string) (string, bool) {
	if pkg == mod {
		return ".", true
	}
	rest, ok := strings.CutPrefix(pkg, mod+"/")
	return rest, ok
}

// DocGraph reads the table under Section in a Markdown document: one row
// per package, its first cell the package and its second the packages it
// may import, each in backquotes ("none" or an empty cell for none).
// Further cells (the reason for an import) are not read.
func DocGraph(doc []byte) (Graph, error) {
	g := Graph{}
	in, seen := false, false
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "## ") {
			in = line == Section
			seen = seen || in
			continue
		}
		if !in || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 {
			return nil, fmt.Errorf("line %d: a row needs a package and its imports: %q", n, line)
		}
		pkgs := quoted(cells[0])
		if len(pkgs) != 1 {
			if strings.Trim(cells[0], " -:") == "" || len(pkgs) == 0 {
				continue // the header and its separator
			}
			return nil, fmt.Errorf("line %d: the first cell names %d packages, want one", n, len(pkgs))
		}
		if _, dup := g[pkgs[0]]; dup {
			return nil, fmt.Errorf("line %d: package %s has a second row", n, pkgs[0])
		}
		deps := quoted(cells[1])
		sort.Strings(deps)
		g[pkgs[0]] = slices.Compact(deps)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the document: %w", err)
	}
	if !seen {
		return nil, fmt.Errorf("no section %q", Section)
	}
	return g, nil
}

// quoted returns the backquoted words of a table cell.
func quoted(cell string) []string {
	var words []string
	parts := strings.Split(cell, "`")
	for i := 1; i < len(parts); i += 2 {
		if w := strings.TrimSpace(parts[i]); w != "" {
			words = append(words, w)
		}
	}
	return words
}

// Diff returns, one line each and sorted, how code differs from doc: an
// import the document does not allow, an allowed import no longer made,
// a package without a row, a row for no package.
func Diff(code, doc Graph) []string {
	var d []string
	for pkg, deps := range code {
		allowed, ok := doc[pkg]
		if !ok {
			d = append(d, fmt.Sprintf("package %s has no row", pkg))
			continue
		}
		for _, dep := range deps {
			if !slices.Contains(allowed, dep) {
				d = append(d, fmt.Sprintf("%s imports %s, which the document does not draw", pkg, dep))
			}
		}
		for _, dep := range allowed {
			if !slices.Contains(deps, dep) {
				d = append(d, fmt.Sprintf("%s no longer imports %s, which the document draws", pkg, dep))
			}
		}
	}
	for pkg := range doc {
		if _, ok := code[pkg]; !ok {
			d = append(d, fmt.Sprintf("row for %s, which is not a package of the module", pkg))
		}
	}
	sort.Strings(d)
	return d
}
