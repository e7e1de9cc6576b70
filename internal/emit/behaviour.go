package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The rows of an automatic target assert what the function returned when
// dowse ran it. When the code changes, a new run writes the new results:
// the generated test still passes, and a changed behaviour would go
// unnoticed. So the new file is compared with the one it replaces: a row
// whose inputs are the same as an old row's but whose expectations (its
// want fields, unchecked) differ is reported, old and new. It is written
// with the new expectations all the same: whether the change is a fix or
// a regression is for the user to decide.

// A Change is a row of an automatic target whose inputs an earlier file
// had, with other expectations.
type Change struct {
	Case string // the new row's case name
	Old  string // the earlier expectations: "want: 99"
	New  string // the new ones: "want: 88"
}

// tableRow is a row of a generated table, its fields' source by key.
type tableRow struct {
	name   string
	fields map[string]string
}

// tableRows reads the rows of the table of each test function of src.
func tableRows(src []byte) map[string][]tableRow {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	out := map[string][]tableRow{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil {
			continue
		}
		table := failureTable(fd)
		if table == nil {
			continue
		}
		for _, e := range table.Elts {
			lit, ok := e.(*ast.CompositeLit)
			if !ok {
				continue
			}
			r := tableRow{fields: map[string]string{}}
			for _, kv := range lit.Elts {
				kv, ok := kv.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				if !ok {
					continue
				}
				text := string(src[fset.Position(kv.Value.Pos()).Offset:fset.Position(kv.Value.End()).Offset])
				if key.Name == "name" {
					r.name, _ = strconv.Unquote(text)
					continue
				}
				r.fields[key.Name] = text
			}
			out[fd.Name.Name] = append(out[fd.Name.Name], r)
		}
	}
	return out
}

// behaviourChanges compares the tables of the automatic targets of plans
// in the new source with those of the existing file goFile in dir.
func (g *generated) behaviourChanges(dir, goFile string, src []byte, plans []*plan) map[string][]Change {
	old, err := os.ReadFile(filepath.Join(dir, goFile))
	if err != nil || !isGenerated(old) {
		return nil
	}
	before, after := tableRows(old), tableRows(src)
	out := map[string][]Change{}
	for _, p := range plans {
		if !p.t.Auto {
			continue
		}
		inputs := map[string]bool{}
		for _, f := range p.fields {
			inputs[f] = true
		}
		split := func(r tableRow) (in, want string) {
			var ins, wants []string
			keys := make([]string, 0, len(r.fields))
			for k := range r.fields {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if inputs[k] {
					ins = append(ins, k+": "+r.fields[k])
				} else {
					wants = append(wants, k+": "+r.fields[k])
				}
			}
			return strings.Join(ins, ", "), strings.Join(wants, ", ")
		}
		was := map[string]string{} // inputs -> expectations
		for fn, rows := range before {
			if !g.nm.ofTarget(fn, []string{p.testBase}) {
				continue
			}
			for _, r := range rows {
				in, want := split(r)
				was[in] = want
			}
		}
		for _, r := range after[p.testName] {
			in, want := split(r)
			if w, ok := was[in]; ok && w != want {
				out[p.t.Name] = append(out[p.t.Name], Change{Case: r.name, Old: oneLine(w), New: oneLine(want)})
			}
		}
	}
	return out
}

// oneLine collapses the whitespace runs of a field's source.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
