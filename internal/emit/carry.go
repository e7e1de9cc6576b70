package emit

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Failing rows are never lost by regenerating a file: a run with other
// bounds, another seed or other tags may not reach an input an earlier
// run found failing. So when a target's failures table is rewritten, the
// rows of the existing file's table for that target whose case names the
// new rows do not have are carried over verbatim (with the comment above
// each), unless File.Drop names them (a run of the row showed it no
// longer fails) or their fields no longer fit the table (the target's
// parameters changed).

// oldRow is a failing row of an existing generated file.
type oldRow struct {
	name    string
	text    []byte            // the row's source, comments above it included
	fields  map[string]bool   // its keys
	panics  bool              // it has panics: true
	imports map[string]string // import path -> name, of the packages it uses
}

// oldFailures reads, from the existing generated file goFile in dir, the
// rows of every failures table by function name. A file that is missing,
// not dowse's or does not parse has none.
func oldFailures(dir, goFile string) map[string][]oldRow {
	name := filepath.Join(dir, goFile)
	src, err := os.ReadFile(name)
	if err != nil || !isGenerated(src) {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil
	}
	importName := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		n := filepath.Base(p)
		if imp.Name != nil {
			n = imp.Name.Name
		}
		importName[n] = p
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	out := map[string][]oldRow{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !strings.Contains(fd.Name.Name, "Failures") {
			continue
		}
		table := failureTable(fd)
		if table == nil {
			continue
		}
		prev := table.Lbrace + 1
		for _, e := range table.Elts {
			lit, ok := e.(*ast.CompositeLit)
			if !ok {
				continue
			}
			row := oldRow{fields: map[string]bool{}, imports: map[string]string{}}
			for _, kv := range lit.Elts {
				kv, ok := kv.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				if !ok {
					continue
				}
				row.fields[key.Name] = true
				switch key.Name {
				case "name":
					if bl, ok := kv.Value.(*ast.BasicLit); ok {
						row.name, _ = strconv.Unquote(bl.Value)
					}
				case "panics":
					if id, ok := kv.Value.(*ast.Ident); ok && id.Name == "true" {
						row.panics = true
					}
				}
			}
			start := e.Pos()
			for _, cg := range f.Comments {
				if cg.Pos() > prev && cg.End() <= e.Pos() && cg.Pos() < start {
					start = cg.Pos()
				}
			}
			row.text = bytes.Clone(src[off(start):off(e.End())])
			ast.Inspect(lit, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok {
						if p, ok := importName[id.Name]; ok {
							row.imports[p] = id.Name
						}
					}
				}
				return true
			})
			prev = e.End()
			if row.name != "" {
				out[fd.Name.Name] = append(out[fd.Name.Name], row)
			}
		}
	}
	return out
}

// failureTable finds the table of a generated failures test: the
// composite literal assigned to tests.
func failureTable(fd *ast.FuncDecl) *ast.CompositeLit {
	for _, st := range fd.Body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			continue
		}
		if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != "tests" {
			continue
		}
		if lit, ok := as.Rhs[0].(*ast.CompositeLit); ok {
			return lit
		}
	}
	return nil
}

// hasOld reports whether the existing file has a failures table of p.
func (g *generated) hasOld(p *plan) bool {
	for fn := range g.oldFail {
		if g.nm.ofTarget(fn, []string{p.failBase}) {
			return true
		}
	}
	return false
}

// carried returns the old rows of p's failures table to write after its
// new rows (whose names are in have): those fitting the table's fields,
// not dropped, whose imports can be added.
func (w *writer) carried(p *plan, have map[string]bool) []oldRow {
	var old []oldRow
	for _, fn := range slices.Sorted(maps.Keys(w.g.oldFail)) {
		if w.g.nm.ofTarget(fn, []string{p.failBase}) {
			old = append(old, w.g.oldFail[fn]...)
		}
	}
	fields := map[string]bool{"name": true, "found": true, "panics": true}
	for _, f := range p.fields {
		fields[f] = true
	}
	var out []oldRow
rows:
	for _, r := range old {
		if have[r.name] || w.g.drop[p.t.Name][r.name] {
			continue
		}
		for f := range r.fields {
			if !fields[f] {
				w.g.lost[p.t.Name]++
				continue rows
			}
		}
		for path, name := range r.imports {
			if n, ok := w.imports.names[path]; ok && n != name || !ok && w.imports.taken[name] {
				w.g.lost[p.t.Name]++
				continue rows
			}
		}
		for path, name := range r.imports {
			w.imports.add(path, name)
		}
		have[r.name] = true
		out = append(out, r)
		w.g.carried[p.t.Name] = append(w.g.carried[p.t.Name], r.name)
	}
	return out
}

// A fuzz target's failing inputs are corpus files in the directory of
// its failures target (testdata/fuzz/FuzzDowseXxxFailures), which a run
// owns. They are carried as rows are: dowse's files there that this run
// did not find again stay, unless File.Drop names them (the failures
// target, run on them with the reproduce variable set, passed) or they
// no longer fit the fuzz function's parameters.

// carryCorpus adds to the corpus of p's failures target dowse's files of
// the existing directory that the new set lacks, and returns their names.
func (g *generated) carryCorpus(dir string, p *plan) []string {
	rel := path.Join("testdata", "fuzz", p.failName)
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	files := g.corpus[rel]
	var carried []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, CorpusPrefix) || !e.Type().IsRegular() || files[name] != nil || g.drop[p.t.Name][name] {
			continue
		}
		content, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel), name))
		if err != nil || !isCorpus(content) {
			continue
		}
		if !corpusFits(content, p.t.Params) {
			g.lost[p.t.Name]++
			continue
		}
		files[name] = content
		carried = append(carried, name)
	}
	g.carried[p.t.Name] = append(g.carried[p.t.Name], carried...)
	return carried
}

// corpusFits reports whether a corpus file has one value per parameter,
// each of the parameter's corpus type, so that go test can run it.
func corpusFits(content []byte, params []*types.Var) bool {
	lines := strings.Split(strings.TrimRight(string(content), "\n"), "\n")[1:]
	if len(lines) != len(params) {
		return false
	}
	for i, l := range lines {
		want, err := corpusType(params[i].Type())
		if err != nil {
			return false
		}
		typ, _, ok := strings.Cut(strings.TrimSpace(l), "(")
		if !ok || !slices.Contains(corpusSpellings(want), typ) {
			return false
		}
	}
	return true
}

// corpusSpellings are the type names go test accepts for a parameter of
// corpus type t.
func corpusSpellings(t string) []string {
	switch t {
	case "byte":
		return []string{"byte", "uint8"}
	case "int32":
		return []string{"int32", "rune"}
	}
	return []string{t}
}
