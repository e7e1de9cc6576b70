package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// generated is everything Write puts on disk for one File, before it is
// written.
type generated struct {
	goFile  string // base name of the generated test file
	goSrc   []byte // its content; nil if the file has no tests (a stale one is removed)
	corpus  map[string]map[string][]byte
	omitted []Omission
	cases   []Case // written rows of automatic targets
	mocks   map[string][]string
	// failNames are, by target, the names of the failure tables written.
	failNames map[string]string
	pkg       *types.Package // the package of the file
	nm        namer
	// oldFail are the rows of the existing file's failures tables, by
	// function (carry.go); drop the names of those not to carry, by
	// target; carried the names of those carried and lost the number
	// that no longer fit, by target.
	oldFail map[string][]oldRow
	drop    map[string]map[string]bool
	carried map[string][]string
	lost    map[string]int
	// behaviour are the rows of automatic targets whose expectations
	// changed from the existing file's (behaviour.go), by target.
	behaviour map[string][]Change
}

// A corpus directory (slash-separated, relative to File.Dir) in
// generated.corpus is owned by this run: dowse's files in it that are not
// in the new set are removed.

// plan is one emittable target with its rows sorted into tables.
type plan struct {
	t        *Target
	fields   []string // names of the table struct's fields for the parameters
	pass     []rowPlan
	fail     []rowPlan
	testName string // TestDowseXxx
	failName string // TestDowseXxxFailures or FuzzDowseXxxFailures
	failBase string // failName before a suffix made it free
	testBase string // testName before a suffix made it free
	// keptCorpus are the failing inputs of a fuzz target that earlier
	// runs found and this one did not, carried as corpus files.
	keptCorpus []string
}

type rowPlan struct {
	index int // into Target.Rows
	row   *Row
	vals  []*value
	outs  []*value // automatic targets: the results to assert, nil if not compared
	// calls are, for an automatic target's row, per parameter, the
	// calls its generated mock recorded, to assert (Row.MockCalls).
	calls [][]string
}

// failing reports whether a row's status is a found bug.
func failing(s rt.Status) bool {
	switch s {
	case rt.StatusFail, rt.StatusPanic, rt.StatusExit, rt.StatusTimeout:
		return true
	}
	return false
}

func generate(f File, opts Options) (*generated, []*TargetError, error) {
	goFile, err := generatedName(f.SourceFile)
	if err != nil {
		return nil, nil, err
	}
	buildLine, err := buildConstraint(f.Dir, f.SourceFile)
	if err != nil {
		return nil, nil, err
	}
	if f.Isolated {
		goFile = isolatedName(goFile)
		if expr := strings.TrimSpace(strings.TrimPrefix(buildLine, "//go:build")); expr != "" {
			buildLine = "//go:build (" + expr + ") && " + IsolatedTag
		} else {
			buildLine = "//go:build " + IsolatedTag
		}
	}
	g := &generated{goFile: goFile, corpus: map[string]map[string][]byte{}, failNames: map[string]string{}, pkg: f.Pkg}
	self := f.Pkg.Path()
	scope := f.Pkg.Scope()
	declared, err := declaredNames(f.Dir)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the package's names: %w", err)
	}
	nm := namer{taken: declared, scope: scope}
	g.nm = nm
	g.oldFail = oldFailures(f.Dir, goFile)
	g.drop, g.carried, g.lost = map[string]map[string]bool{}, map[string][]string{}, map[string]int{}
	for t, names := range f.Drop {
		g.drop[t] = map[string]bool{}
		for _, n := range names {
			g.drop[t][n] = true
		}
	}

	var (
		plans []*plan
		terrs []*TargetError
		pkgs  = map[string]*types.Package{}
	)
	for ti := range f.Targets {
		t := &f.Targets[ti]
		p, tpkgs, err := planTarget(t, self, nm, g)
		if err != nil {
			terrs = append(terrs, &TargetError{Target: t.Name, Err: err})
			continue
		}
		for k, v := range tpkgs {
			pkgs[k] = v
		}
		plans = append(plans, p)
	}

	keep, err := keptFuncs(f.Dir, goFile, f.Keep, nm)
	if err != nil {
		return nil, nil, err
	}
	// Corpus files for fuzz targets, with the failing inputs of the
	// existing files carried.
	for _, p := range plans {
		if !p.t.Fuzz {
			continue
		}
		if err := g.addCorpus(p.t.Name, p.pass); err != nil {
			return nil, nil, err
		}
		if err := g.addCorpus(p.failName, p.fail); err != nil {
			return nil, nil, err
		}
		p.keptCorpus = g.carryCorpus(f.Dir, p)
	}
	hasTests, hasFailures := len(keep.funcs) > 0, false
	for _, p := range plans {
		old := !p.t.Fuzz && g.hasOld(p) || len(p.keptCorpus) > 0
		if (!p.t.Fuzz && len(p.pass) > 0) || len(p.fail) > 0 || old {
			hasTests = true
		}
		if len(p.fail) > 0 || old {
			hasFailures = true
			g.failNames[p.t.Name] = p.failName
		}
	}
	reserved := append(scope.Names(), "t", "tt", "tests", "f")
	imports := newImportSet(self, reserved)
	if hasTests {
		imports.add("testing", "testing")
	}
	if hasFailures {
		imports.add("os", "os")
	}
	for _, p := range keep.paths() {
		if n := imports.add(p, keep.imports[p]); n != keep.imports[p] {
			return nil, nil, fmt.Errorf("kept tests import %s as %s, which is taken: regenerate all targets of %s", p, keep.imports[p], f.SourceFile)
		}
	}
	imports.addAll(pkgs)
	r := newRenderer(self, imports)
	r.generics = langAtLeast(f.Pkg, "go1.22")

	if !hasTests {
		return g, terrs, nil
	}

	// The tests first: rendering values may import more (math for a
	// NaN), and the import block must list what they use.
	// Each target's functions are rendered and checked on their own: a
	// target whose code does not parse (a bug in emit) is an error of
	// its own and keeps what an earlier run generated for it, and the
	// other targets are written.
	var body bytes.Buffer
	var broken []string
	kept := plans[:0:0]
	for _, p := range plans {
		var chunk bytes.Buffer
		ncases := len(g.cases)
		w := &writer{b: &chunk, r: r, imports: imports, opts: opts, g: g}
		if err := w.target(p); err != nil {
			g.cases = g.cases[:ncases]
			terrs = append(terrs, &TargetError{Target: p.t.Name, Err: err})
			broken = append(broken, p.t.Name)
			continue
		}
		body.Write(chunk.Bytes())
		kept = append(kept, p)
	}
	plans = kept
	if len(broken) > 0 {
		old, err := keptFuncs(f.Dir, goFile, broken, nm)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range old.paths() {
			if n := imports.add(p, old.imports[p]); n != old.imports[p] {
				return nil, nil, fmt.Errorf("kept tests import %s as %s, which is taken: regenerate all targets of %s", p, old.imports[p], f.SourceFile)
			}
		}
		keep.funcs = append(keep.funcs, old.funcs...)
	}
	if body.Len() == 0 && len(keep.funcs) == 0 {
		return g, terrs, nil
	}
	for _, fn := range keep.funcs {
		body.WriteString("\n")
		body.Write(fn)
		body.WriteString("\n")
	}
	// The mock types the rows use: declared in the package's file of
	// mock types (WriteMocks), not here.
	g.mocks = map[string][]string{}
	for _, p := range plans {
		mine := map[string]*mock.Type{}
		for _, rp := range append(append([]rowPlan(nil), p.pass...), p.fail...) {
			for _, v := range rp.vals {
				mocksOf(v, mine)
			}
		}
		if len(mine) > 0 {
			g.mocks[p.t.Name] = slices.Sorted(maps.Keys(mine))
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\n", Header)
	if buildLine != "" {
		fmt.Fprintf(&b, "%s\n\n", buildLine)
	}
	fmt.Fprintf(&b, "package %s\n\n", f.Pkg.Name())
	writeImports(&b, imports)
	b.Write(body.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, nil, fmt.Errorf("generated code does not parse (a bug in emit): %w\n%s", err, b.Bytes())
	}
	if src, err = pruneImports(src); err != nil {
		return nil, nil, err
	}
	if src, err = withoutAny(src, f.Pkg); err != nil {
		return nil, nil, err
	}
	g.goSrc = src
	g.behaviour = g.behaviourChanges(f.Dir, goFile, src, plans)
	return g, terrs, nil
}

// planTarget checks a target and decodes its rows.
func planTarget(t *Target, self string, nm namer, g *generated) (*plan, map[string]*types.Package, error) {
	pkgs := map[string]*types.Package{}
	if err := checkParams(t, self, pkgs); err != nil {
		return nil, nil, err
	}
	for _, fn := range t.Funcs {
		sig := fn.Type().(*types.Signature)
		var params []*types.Var
		for i := 0; i < sig.Params().Len(); i++ {
			params = append(params, sig.Params().At(i))
		}
		if err := checkTypes(params, self, pkgs); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", fn.Name(), err)
		}
	}
	compare := t.Auto
	resultPkgs := map[string]*types.Package{} // imported if a row compares results
	if t.Auto && len(t.Results) > 0 {
		// Results the file cannot write are not compared.
		if checkTypes(t.Results, self, resultPkgs) == nil {
			delete(resultPkgs, "errors") // error results are compared by message
		} else {
			compare = false
		}
	}
	if t.Fuzz {
		if err := checkFuzzParams(t.Params); err != nil {
			return nil, nil, err
		}
	}
	ident := TestIdent(t.Name)
	if len(t.Sandbox) > 0 {
		ident = "Isolated" + ident // the isolated file's tests, beside the ordinary file's
	}
	p := &plan{t: t, testName: "TestDowse" + ident, failName: "TestDowse" + ident + "Failures"}
	if nm.scope.Lookup(t.Name+"Failures") != nil {
		p.failName = "TestDowseFailures" + t.Name
	}
	if t.Fuzz {
		p.failName = "FuzzDowse" + strings.TrimPrefix(t.Name, "Fuzz") + "Failures"
	}
	// Names the package declares itself are not used (taken.go).
	p.failBase, p.testBase = p.failName, p.testName
	p.testName, p.failName = nm.free(p.testName), nm.free(p.failName)
	used := map[string]bool{"name": true, "found": true}
	for _, sv := range t.Sandbox {
		if sv.Pkg.Path() != self {
			pkgs[sv.Pkg.Path()] = sv.Pkg
		}
	}
	for i, v := range t.Params {
		n := v.Name()
		if n == "" || n == "_" {
			n = "arg" + strconv.Itoa(i+1)
		}
		for used[n] {
			n += "_"
		}
		used[n] = true
		p.fields = append(p.fields, n)
	}
	for i := range t.Rows {
		row := &t.Rows[i]
		if !failing(row.Status) && row.Status != rt.StatusPass && row.Status != rt.StatusSkip {
			g.omitted = append(g.omitted, Omission{t.Name, i, fmt.Sprintf("run ended with status %s: its outcome is unknown", row.Status)})
			continue
		}
		if t.Auto && row.Status == rt.StatusSkip {
			continue // an input whose construction failed: no call to test
		}
		vals, err := decodeValues(t.Params, t.Layout, t.Funcs, row.Inputs, false, dynTypes{t.Dyn, t.Mocks, t.Vars})
		if err != nil {
			return nil, nil, fmt.Errorf("row %d: %w", i, err)
		}
		rp := rowPlan{index: i, row: row, vals: vals}
		if compare && row.Outputs != nil && row.Status == rt.StatusPass {
			if rp.outs, err = decodeOutputs(t, row.Outputs); err != nil {
				return nil, nil, fmt.Errorf("row %d: results: %w", i, err)
			}
		}
		if t.Auto && row.Status == rt.StatusPass && !row.Unchecked {
			rp.calls = row.MockCalls
		}
		if failing(row.Status) {
			p.fail = append(p.fail, rp)
		} else {
			p.pass = append(p.pass, rp)
		}
	}
	for _, rp := range p.pass {
		for _, c := range rp.calls {
			if len(c) > 0 {
				if langAtLeast(g.pkg, "go1.18") {
					pkgs["slices"] = types.NewPackage("slices", "slices")
				} else {
					pkgs["strings"] = types.NewPackage("strings", "strings")
				}
			}
		}
	}
	if p.compared() {
		maps.Copy(pkgs, resultPkgs)
		for _, r := range t.Results {
			if !namedAs(r.Type(), "", "error") {
				pkgs["reflect"] = types.NewPackage("reflect", "reflect")
			}
		}
		for _, rp := range p.pass {
			if len(rp.outs) > len(t.Results) { // a state after the call
				pkgs["reflect"] = types.NewPackage("reflect", "reflect")
			}
		}
	}
	return p, pkgs, nil
}

// compared reports whether some passing row of p asserts results.
func (p *plan) compared() bool {
	for _, rp := range p.pass {
		if rp.outs != nil {
			return true
		}
	}
	return false
}

// addCorpus adds the corpus files of rows for fuzz function fn. The
// directory is owned even if rows is empty.
func (g *generated) addCorpus(fn string, rows []rowPlan) error {
	dir := path.Join("testdata", "fuzz", fn)
	files := g.corpus[dir]
	if files == nil {
		files = map[string][]byte{}
		g.corpus[dir] = files
	}
	for _, rp := range rows {
		content, err := corpusFile(rp.vals)
		if err != nil {
			return err
		}
		files[corpusName(content)] = content
	}
	return nil
}

// stringsLit writes ss as a []string literal.
func stringsLit(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quoteString(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// escape makes s safe inside a Go string literal that is a format.
func escape(s string) string {
	q := strconv.Quote(s)
	return strings.ReplaceAll(q[1:len(q)-1], "%", "%%")
}

// pruneImports removes the imports src does not use: a package that a
// target's types need only where its rows do not write them (the
// parameters of an isolated call's stub, whose types the literals spell
// without reaching every package the check collected). src is returned
// as it is when every import is used.
func pruneImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("generated code does not parse (a bug in emit): %w", err)
	}
	type spec struct{ name, path string }
	var unused []spec
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if imp.Name != nil && (imp.Name.Name == "_" || imp.Name.Name == ".") || astutil.UsesImport(f, path) {
			continue
		}
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		}
		unused = append(unused, spec{name, path})
	}
	if len(unused) == 0 {
		return src, nil
	}
	for _, u := range unused {
		astutil.DeleteNamedImport(fset, f, u.name, u.path)
	}
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, fmt.Errorf("printing generated code: %w", err)
	}
	return b.Bytes(), nil
}

// order is the order of p's fields in the table: the isolated call sites'
// stubs first, so that the values of a row built by calls (a receiver
// made by its constructor) are made with the row's stubs set (fieldLit),
// as the worker made them; then the parameters.
func (p *plan) order() []int {
	n := len(p.fields)
	own := n - len(p.t.Sandbox)
	out := make([]int, 0, n)
	for i := own; i < n; i++ {
		out = append(out, i)
	}
	for i := 0; i < own; i++ {
		out = append(out, i)
	}
	return out
}

// writeImports writes the import block of imports, standard library
// first, or nothing if there are none.
func writeImports(b *bytes.Buffer, imports *importSet) {
	std, other := imports.specs()
	if len(std)+len(other) == 0 {
		return
	}
	b.WriteString("import (\n")
	for _, s := range std {
		b.WriteString("\t" + s + "\n")
	}
	if len(std) > 0 && len(other) > 0 {
		b.WriteString("\n")
	}
	for _, s := range other {
		b.WriteString("\t" + s + "\n")
	}
	b.WriteString(")\n")
}
