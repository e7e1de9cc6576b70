package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/load"
)

// generatedNameRE matches the names emit gives generated test files:
// put_dowse_test.go, io_dowse_linux_test.go, stack_dowse_auto_test.go,
// put_dowse_isolated_test.go.
var generatedNameRE = regexp.MustCompile(`^.+_dowse(_auto)?(_isolated)?(_[a-z0-9]+){0,2}_test\.go$`)

// staleFiles returns dowse's generated test files in p's directory
// whose targets are all gone: files carrying the generated-code header,
// named as emit names them, whose source file no longer exists or
// declares none of the package's targets. Generated files of automatic
// targets are kept while the package's automatic targets are not
// explored (it has PUTs or fuzz targets and -auto is off) unless their
// source file is gone.
func staleFiles(p *load.Package) []string {
	live := map[string]bool{}
	auto, puts := false, false
	for _, t := range p.Targets {
		live[filepath.Base(t.Pos.Filename)] = true
		if t.Kind.Auto() {
			auto = true
		} else {
			puts = true
		}
	}
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		return nil
	}
	source := map[string]string{} // generated name -> source file
	var candidates []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		content, err := os.ReadFile(filepath.Join(p.Dir, name))
		if err != nil {
			continue
		}
		if bytes.HasPrefix(content, []byte(emit.Header+"\n")) {
			if generatedNameRE.MatchString(name) {
				candidates = append(candidates, name)
			}
			continue
		}
		for _, g := range emit.GeneratedNames(name) {
			source[g] = name
		}
	}
	var stale []string
	for _, name := range candidates {
		src, ok := source[name]
		switch {
		case ok && live[src]:
			continue
		case ok && !auto && puts && !strings.HasSuffix(src, "_test.go"):
			continue // automatic targets not explored this run
		}
		stale = append(stale, filepath.Join(p.Dir, name))
	}
	sort.Strings(stale)
	return stale
}

// removeStale removes the stale generated files of p (staleFiles) and
// says so: left behind, such a file calls targets that no longer exist
// and the package's tests stop building.
func (g *runner) removeStale(p *load.Package) {
	for _, f := range staleFiles(p) {
		if err := os.Remove(f); err != nil {
			g.warnf("warning: removing the stale generated %s: %v", output.Rel(g.cwd, f), err)
			continue
		}
		g.changed[f] = true
		g.stats.Removed = append(g.stats.Removed, f)
		g.notef("removed %s: the targets it tested are gone", output.Rel(g.cwd, f))
	}
}
