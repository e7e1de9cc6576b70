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
	"unicode"
	"unicode/utf8"

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

// target writes the test functions of one target, and checks that they
// parse; a panic of the writer is an error of the target.
func (w *writer) target(p *plan) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("writing its tests (a bug in emit): %v", x)
		}
	}()
	if p.t.Fuzz {
		if len(p.fail) > 0 || len(p.keptCorpus) > 0 {
			w.fuzzFailures(p)
		}
	} else {
		if len(p.pass) > 0 && p.t.Auto {
			w.autoTable(p)
		} else if len(p.pass) > 0 {
			w.passTable(p)
		}
		if len(p.fail) > 0 || w.g.hasOld(p) {
			w.failTable(p)
		}
	}
	src := append([]byte("package p\n"), w.b.Bytes()...)
	if _, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution); err != nil {
		return fmt.Errorf("its generated code does not parse (a bug in emit): %w", err)
	}
	return nil
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

// writer writes the test functions of a generated file.
type writer struct {
	b       *bytes.Buffer
	r       *renderer
	imports *importSet
	opts    Options
	g       *generated
}

func (w *writer) pf(format string, args ...any) { fmt.Fprintf(w.b, format, args...) }

// tableHead writes "tests := []struct{...}{" for p's parameters.
func (w *writer) tableHead(p *plan, extra string) {
	w.pf("\ttests := []struct {\n\t\tname string\n")
	for _, i := range p.order() {
		w.pf("\t\t%s %s\n", p.fields[i], w.r.typeString(p.t.Params[i].Type()))
	}
	if extra != "" {
		w.pf("\t\t%s\n", extra)
	}
	w.pf("\t}{\n")
}

// rowFields renders the parameter fields of one row.
func (w *writer) rowFields(p *plan, rp rowPlan) string {
	parts := make([]string, 0, len(rp.vals))
	for _, i := range p.order() {
		parts = append(parts, p.fields[i]+": "+w.fieldLit(p, i, rp.vals[i]))
	}
	return strings.Join(parts, ", ")
}

// call renders the call of the target on tt's fields; for a target with
// isolated call sites, preceded by the setting of their variables.
func (w *writer) call(p *plan) string {
	args := []string{"t"}
	fields := p.fields[:len(p.fields)-len(p.t.Sandbox)]
	if p.t.Auto {
		args = nil
		if p.t.Method {
			fields = fields[1:]
		}
	}
	for i, f := range fields {
		a := "tt." + f
		if p.t.Variadic && i == len(fields)-1 {
			a += "..."
		}
		args = append(args, a)
	}
	if p.t.Auto {
		if p.t.Method {
			return "tt." + p.fields[0] + "." + p.t.Call + "(" + strings.Join(args, ", ") + ")"
		}
		return p.t.Call + "(" + strings.Join(args, ", ") + ")"
	}
	return p.t.Name + "(" + strings.Join(args, ", ") + ")"
}

// sandbox renders the statements that set the isolated call sites'
// variables from tt's fields and turn their packages' sandboxes on, and
// undo it when the case ends ("" for a target without sites).
func (w *writer) sandbox(p *plan) string {
	if len(p.t.Sandbox) == 0 {
		return ""
	}
	first := len(p.fields) - len(p.t.Sandbox)
	var lhs, set, reset []string
	switches := map[string]bool{}
	for i, sv := range p.t.Sandbox {
		q := ""
		if sv.Pkg.Path() != w.r.self {
			q = w.imports.names[sv.Pkg.Path()] + "."
		}
		if !switches[q+sv.Switch] {
			switches[q+sv.Switch] = true
			lhs, set, reset = append(lhs, q+sv.Switch), append(set, "true"), append(reset, "false")
		}
		lhs, set, reset = append(lhs, q+sv.Var), append(set, "tt."+p.fields[first+i]), append(reset, "nil")
	}
	l := strings.Join(lhs, ", ")
	return "\t\t\t" + l + " = " + strings.Join(set, ", ") + "\n\t\t\tt.Cleanup(func() {\n\t\t\t\t" + l + " = " + strings.Join(reset, ", ") + "\n\t\t\t})\n"
}

func (w *writer) passTable(p *plan) {
	testing := w.imports.names["testing"]
	w.doc(fmt.Sprintf("%s runs %s on one input per path that dowse explored and saw pass.", p.testName, p.t.Name))
	w.pf("func %s(t *%s.T) {\n", p.testName, testing)
	w.pf("%s", w.sandboxOn(p))
	w.tableHead(p, "")
	names := uniqueNames{}
	seen := map[string]bool{}
	for _, rp := range p.pass {
		fields := w.rowFields(p, rp)
		if seen[fields] {
			continue // the same input reached twice: the target is not deterministic
		}
		seen[fields] = true
		name := names.make(w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))
		line := "{name: " + quoteString(name)
		if fields != "" {
			line += ", " + fields
		}
		line += "},"
		if len(line) <= rowWidth && !strings.Contains(line, "\n") {
			w.pf("\t\t%s\n", line)
			continue
		}
		w.pf("\t\t{\n\t\t\tname: %s,\n", quoteString(name))
		for _, i := range p.order() {
			w.pf("\t\t\t%s: %s,\n", p.fields[i], w.fieldLit(p, i, rp.vals[i]))
		}
		w.pf("\t\t},\n")
	}
	w.pf("\t}\n")
	w.pf("\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *%s.T) {\n%s\t\t\t%s\n\t\t})\n\t}\n}\n", testing, w.sandbox(p), w.call(p))
}

func (w *writer) failTable(p *plan) {
	testing, os := w.imports.names["testing"], w.imports.names["os"]
	// The case names of the new rows, to carry the old ones they lack.
	have := map[string]bool{}
	{
		names := uniqueNames{}
		seen := map[string]bool{}
		for _, rp := range p.fail {
			key := w.rowFields(p, rp)
			if seen[key] {
				continue
			}
			seen[key] = true
			have[names.make(rp.row.Status.String()+":"+w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))] = true
		}
	}
	carried := w.carried(p, have)
	if len(p.fail) == 0 && len(carried) == 0 {
		return
	}
	panics := false
	for _, rp := range p.fail {
		panics = panics || recoverable(rp.row)
	}
	for _, r := range carried {
		panics = panics || r.panics
	}
	doc := fmt.Sprintf("%s holds the inputs on which dowse saw %s fail. Each case skips, reporting the failure, unless %s=1 is set; then it runs and fails.", p.failName, p.t.Name, ReproduceEnv)
	extra := "found string"
	if panics {
		doc = fmt.Sprintf("%s holds the inputs on which dowse saw %s fail. Each case skips, reporting the failure, unless %s=1 is set; then it runs and fails. A case that panicked runs up to its panic first, recovers it and skips, so that the statements on its path count in go test -cover; if it no longer panics, it passes.", p.failName, p.t.Name, ReproduceEnv)
		extra = "found  string\n\t\tpanics bool"
	}
	w.doc(doc)
	w.pf("func %s(t *%s.T) {\n", p.failName, testing)
	w.pf("%s", w.sandboxOn(p))
	w.tableHead(p, extra)
	names := uniqueNames{}
	seen := map[string]bool{}
	for _, rp := range p.fail {
		key := w.rowFields(p, rp)
		if seen[key] {
			continue // the same input reached twice
		}
		seen[key] = true
		name := names.make(rp.row.Status.String() + ":" + w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))
		w.comment("\t\t// ", "\t\t// ", rp.row)
		w.pf("\t\t{\n\t\t\tname: %s,\n", strconv.Quote(name))
		for _, i := range p.order() {
			w.pf("\t\t\t%s: %s,\n", p.fields[i], w.fieldLit(p, i, rp.vals[i]))
		}
		w.pf("\t\t\tfound: %s,\n", strconv.Quote(found(rp.row)))
		if recoverable(rp.row) {
			w.pf("\t\t\tpanics: true,\n")
		}
		w.pf("\t\t},\n")
	}
	for _, r := range carried {
		w.pf("\t\t%s,\n", r.text)
	}
	w.pf("\t}\n")
	w.pf("\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *%s.T) {\n", testing)
	w.pf("\t\t\tif %s.Getenv(%q) != \"1\" {\n", os, ReproduceEnv)
	skip := fmt.Sprintf("t.Skipf(\"dowse found: %%s\\nreproduce: %s=1 go test -run '^%s$/^%%s$'\", tt.found, tt.name)", ReproduceEnv, p.failName)
	if panics {
		w.pf("\t\t\t\tif !tt.panics {\n\t\t\t\t\t%s\n\t\t\t\t}\n", skip)
		w.pf("\t\t\t\tdefer func() {\n\t\t\t\t\tif recover() != nil {\n\t\t\t\t\t\t%s\n\t\t\t\t\t}\n\t\t\t\t}()\n", skip)
	} else {
		w.pf("\t\t\t\t%s\n", skip)
	}
	w.pf("\t\t\t}\n%s\t\t\t%s\n\t\t})\n\t}\n}\n", w.sandbox(p), w.call(p))
}

// recoverable reports whether a failing row is a panic the generated
// case can run up to and recover: a panic that escaped the target on the
// goroutine that called it (a crash of the process is status exit) and
// the only failure of the run (a case whose target also reported an
// error would fail the test).
func recoverable(row *Row) bool {
	return row.Status == rt.StatusPanic && len(row.Messages) == 1
}

func (w *writer) fuzzFailures(p *plan) {
	testing, os := w.imports.names["testing"], w.imports.names["os"]
	dir := path.Join("testdata", "fuzz", p.failName)
	w.doc(fmt.Sprintf("%s reruns the fuzz function of %s on the inputs in %s, on which dowse saw it fail. It skips, reporting the failures, unless %s=1 is set; then it runs and fails.", p.failName, p.t.Name, dir, ReproduceEnv))
	w.pf("//\n")
	var list strings.Builder
	seen := map[string]bool{}
	for _, rp := range p.fail {
		content, err := corpusFile(rp.vals)
		if err != nil {
			panic(err) // checked by addCorpus
		}
		file := corpusName(content)
		if seen[file] {
			continue
		}
		seen[file] = true
		w.comment("//   - "+file+": ", "//     ", rp.row)
		fmt.Fprintf(&list, "\n%s: %s", file, found(rp.row))
	}
	for _, file := range p.keptCorpus {
		w.pf("//   - %s: an earlier run found it failing\n", file)
		fmt.Fprintf(&list, "\n%s: found failing by an earlier run", file)
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "dowse found %d failing input(s) of %s in %s:%s", len(seen)+len(p.keptCorpus), p.t.Name, dir, list.String())
	fmt.Fprintf(&msg, "\nreproduce: %s=1 go test -run '^%s$' (one input: -run '^%s$/^NAME$')", ReproduceEnv, p.failName, p.failName)
	w.pf("func %s(f *%s.F) {\n", p.failName, testing)
	// Skipf with the message as an argument: a message that holds a %
	// (a failure's text) is not a format, which go vet would flag.
	w.pf("\tif %s.Getenv(%q) != \"1\" {\n\t\tf.Skipf(\"%%s\", %s)\n\t}\n", os, ReproduceEnv, strconv.Quote(msg.String()))
	w.pf("\t%s(f)\n}\n", p.t.Name)
}

// doc starts a declaration with a blank line and text as its doc comment.
func (w *writer) doc(text string) {
	w.pf("\n")
	for _, l := range wrap(text, 76) {
		w.pf("// %s\n", l)
	}
}

// comment writes the failure and path condition of a row as comment
// lines, the first starting with first, the others with rest.
func (w *writer) comment(first, rest string, row *Row) {
	lines := wrap(found(row), 76)
	if cond := clean(row.PathCondition); cond != "" {
		if max := w.opts.maxCondition(); len(cond) > max {
			cut := max
			for cut > 0 && !utf8RuneStart(cond[cut]) {
				cut--
			}
			cond = fmt.Sprintf("%s ... (%d more bytes)", cond[:cut], len(cond)-cut)
		}
		for i, l := range wrap("path: "+cond, 76) {
			if i > 0 {
				l = "  " + l
			}
			lines = append(lines, l)
		}
	}
	for i, l := range lines {
		if i == 0 {
			w.pf("%s%s\n", first, l)
		} else {
			w.pf("%s%s\n", rest, l)
		}
	}
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// found describes how a failing run ended, on one line.
func found(row *Row) string {
	s := row.Status.String()
	msg := clean(strings.Join(row.Messages, "; "))
	switch {
	case msg != "":
		s += ": " + msg
	case row.Status == rt.StatusTimeout:
		s += ": the run did not finish in time"
	case row.Status == rt.StatusExit:
		s += ": the process exited"
	}
	if row.PanicAt != "" {
		s += " (at " + clean(row.PanicAt) + ")"
	}
	if len(s) > 300 {
		cut := 300
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + " ..."
	}
	return s
}

// clean makes text fit on one comment line: whitespace runs collapsed to
// one space, bytes that are not UTF-8 written \xff and other characters
// that are not graphic (NUL, which no Go source may hold, control
// characters, a byte order mark) escaped as in a Go string, \x00.
func clean(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsSpace(c):
			b.WriteByte(' ')
		case !unicode.IsGraphic(c):
			q := strconv.QuoteRune(c)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(c)
		}
		i += size
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// wrap breaks s into lines of at most width bytes at spaces (a longer word
// gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// rowWidth is the width beyond which a table row is written with one
// field per line.
const rowWidth = 120

// autoTable writes the regression test of an automatic target: each row
// calls the function on one input per path dowse explored and compares
// the results with those it returned then (errors by message, "" for
// none; other results with reflect.DeepEqual).
func (w *writer) autoTable(p *plan) {
	testing := w.imports.names["testing"]
	what := "checks the results it returned then"
	if !p.compared() {
		what = "checks that it returns"
	}
	w.doc(fmt.Sprintf("%s calls %s on one input per path that dowse explored and %s.", p.testName, p.t.Name, what))
	w.pf("func %s(t *%s.T) {\n", p.testName, testing)
	w.pf("%s", w.sandboxOn(p))
	for _, v := range p.t.Restore {
		// The package state the target writes, restored when the test
		// ends, so that the tests after it see the package as it was.
		w.pf("\tt.Cleanup(func() func() { saved := %s; return func() { %s = saved } }())\n", v, v)
	}
	results := p.t.Results
	var after []int            // parameters compared after the call
	var observed []rt.Observer // methods called on parameters after the call
	if p.compared() && p.t.Layout != nil {
		after, observed = p.t.Layout.After, p.t.Layout.Observers
	} else {
		results = nil
	}
	wants := make([]string, len(results))
	gots := make([]string, len(results))
	isErr := make([]bool, len(results))
	count := map[bool]int{} // results that are errors, and others
	for i, r := range results {
		isErr[i] = namedAs(r.Type(), "", "error")
		count[isErr[i]]++
	}
	// Field names of the table: the parameters', then fresh ones for the
	// expected values (a parameter may be called want).
	taken := map[string]bool{"name": true}
	for _, f := range p.fields {
		taken[f] = true
	}
	fresh := func(name string) string {
		if taken[name] {
			base := name + "Result"
			name = base
			for n := 2; taken[name]; n++ {
				name = base + strconv.Itoa(n)
			}
		}
		taken[name] = true
		return name
	}
	var extra []string
	for i, r := range results {
		want, got, typ := "want", "got", w.r.typeString(r.Type())
		if isErr[i] {
			want, got, typ = "wantErr", "err", "string"
		}
		if count[isErr[i]] > 1 {
			want, got = want+strconv.Itoa(i+1), got+strconv.Itoa(i+1)
		}
		want = fresh(want)
		wants[i], gots[i] = want, got
		extra = append(extra, want+" "+typ)
	}
	// The states after the call are compared in the rows that report
	// them (a state deeper or longer than the layout's bounds is not).
	withAfter, withoutAfter := false, false
	for _, rp := range p.pass {
		if rp.outs != nil && len(after)+len(observed) > 0 {
			if len(rp.outs) > len(results) {
				withAfter = true
			} else {
				withoutAfter = true
			}
		}
	}
	if !withAfter {
		after, observed = nil, nil
	}
	afterWants := make([]string, len(after))
	for k, i := range after {
		f := p.fields[i]
		afterWants[k] = fresh("want" + strings.ToUpper(f[:1]) + f[1:])
		extra = append(extra, afterWants[k]+" "+w.r.typeString(p.t.Params[i].Type())+" // after the call")
	}
	observedWants := make([]string, len(observed))
	for k, o := range observed {
		f := p.fields[o.Param]
		observedWants[k] = fresh("want" + strings.ToUpper(f[:1]) + f[1:] + o.Method)
		res := observerResult(p.t.Params[o.Param].Type(), o.Method)
		extra = append(extra, observedWants[k]+" "+w.r.typeString(res.Type())+" // "+f+"."+o.Method+"() after the call")
	}
	// The calls the parameters' mocks recorded are compared for the
	// parameters that hold a recording mock on some row.
	var callParams []int
	for i := range p.fields {
		for _, rp := range p.pass {
			if i < len(rp.calls) && len(rp.calls[i]) > 0 {
				callParams = append(callParams, i)
				break
			}
		}
	}
	callWants := make([]string, len(callParams))
	for k, i := range callParams {
		f := p.fields[i]
		callWants[k] = fresh("want" + strings.ToUpper(f[:1]) + f[1:] + "Calls")
		extra = append(extra, callWants[k]+" []string // the calls "+f+" recorded")
	}
	// A row is unchecked when its results were not reported, or its
	// results and calls differed under go test.
	uncheckedRow := func(rp rowPlan) bool {
		return rp.outs == nil && len(results)+len(after)+len(observed) > 0 || len(callParams) > 0 && rp.row.Unchecked
	}
	unchecked := false
	for _, rp := range p.pass {
		if uncheckedRow(rp) {
			unchecked = true
		}
	}
	uncheckedField, afterUncheckedField := "unchecked", "afterUnchecked"
	if unchecked {
		uncheckedField = fresh(uncheckedField)
		extra = append(extra, uncheckedField+" bool // results and calls not compared")
	}
	afterUnchecked := withAfter && withoutAfter
	if afterUnchecked {
		afterUncheckedField = fresh(afterUncheckedField)
		extra = append(extra, afterUncheckedField+" bool // the state after the call not compared")
	}
	w.tableHead(p, strings.Join(extra, "\n\t\t"))
	names := uniqueNames{}
	seen := map[string]bool{}
	for _, rp := range p.pass {
		fields := w.rowFields(p, rp)
		if seen[fields] {
			continue
		}
		seen[fields] = true
		name := names.make(w.r.caseName(p.fields[:len(p.fields)-len(p.t.Sandbox)], rp.vals[:len(p.fields)-len(p.t.Sandbox)], w.opts.maxName()))
		w.g.cases = append(w.g.cases, Case{Target: p.t.Name, Test: p.testName, Name: name, Row: rp.index})
		var parts []string
		for _, i := range p.order() {
			parts = append(parts, p.fields[i]+": "+w.fieldLit(p, i, rp.vals[i]))
		}
		switch {
		case uncheckedRow(rp):
			parts = append(parts, uncheckedField+": true")
		case rp.outs != nil && len(results)+len(after)+len(observed) > 0:
			for i, o := range rp.outs {
				switch {
				case i >= len(results)+len(after):
					if k := i - len(results) - len(after); k < len(observed) {
						parts = append(parts, observedWants[k]+": "+w.r.lit(o, false))
					}
				case i >= len(results):
					if len(after) > 0 {
						parts = append(parts, afterWants[i-len(results)]+": "+w.r.lit(o, false))
					}
				case isErr[i]:
					parts = append(parts, wants[i]+": "+quoteString(o.str))
				default:
					parts = append(parts, wants[i]+": "+w.r.lit(o, false))
				}
			}
		}
		if !uncheckedRow(rp) {
			for k, i := range callParams {
				if i < len(rp.calls) && len(rp.calls[i]) > 0 {
					parts = append(parts, callWants[k]+": "+stringsLit(rp.calls[i]))
				}
			}
		}
		if afterUnchecked && rp.outs != nil && len(rp.outs) == len(results) {
			parts = append(parts, afterUncheckedField+": true")
		}
		line := "{name: " + quoteString(name)
		if len(parts) > 0 {
			line += ", " + strings.Join(parts, ", ")
		}
		line += "},"
		if len(line) <= rowWidth && !strings.Contains(line, "\n") {
			w.pf("\t\t%s\n", line)
			continue
		}
		w.pf("\t\t{\n\t\t\tname: %s,\n", quoteString(name))
		for _, part := range parts {
			w.pf("\t\t\t%s,\n", part)
		}
		w.pf("\t\t},\n")
	}
	w.pf("\t}\n")
	w.pf("\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *%s.T) {\n", testing)
	w.pf("%s", w.sandbox(p))
	call := w.call(p)
	if len(results)+len(after)+len(observed)+len(callParams) == 0 {
		w.pf("\t\t\t%s\n\t\t})\n\t}\n}\n", call)
		return
	}
	if len(results) == 0 {
		w.pf("\t\t\t%s\n", call)
	} else {
		w.pf("\t\t\t%s := %s\n", strings.Join(gots, ", "), call)
	}
	indent := "\t\t\t"
	if unchecked {
		w.pf("\t\t\tif tt.%s {\n\t\t\t\treturn\n\t\t\t}\n", uncheckedField)
	}
	shown := strings.Replace(call, "tt.", "", -1)
	for i := range results {
		if isErr[i] {
			w.pf("%sif (%s != nil) != (tt.%s != \"\") || %s != nil && %s.Error() != tt.%s {\n", indent, gots[i], wants[i], gots[i], gots[i], wants[i])
			w.pf("%s\tt.Errorf(\"%s: error %%v, want %%q\", %s, tt.%s)\n%s}\n", indent, escape(shown), gots[i], wants[i], indent)
			continue
		}
		w.pf("%sif !%s.DeepEqual(%s, tt.%s) {\n", indent, w.imports.names["reflect"], gots[i], wants[i])
		w.pf("%s\tt.Errorf(\"%s = %%#v, want %%#v\", %s, tt.%s)\n%s}\n", indent, escape(shown), gots[i], wants[i], indent)
	}
	callsOf := mock.DefaultHelpers.CallsOf
	if len(callParams) > 0 {
		// The package's name of the helper (mock.Names): every mock
		// type of the package has the same.
		mine := map[string]*mock.Type{}
		for _, rp := range p.pass {
			for _, v := range rp.vals {
				mocksOf(v, mine)
			}
		}
		for _, n := range slices.Sorted(maps.Keys(mine)) {
			callsOf = mine[n].Helpers().CallsOf
			break
		}
	}
	for k, i := range callParams {
		f := p.fields[i]
		if strs, ok := w.imports.names["strings"]; ok && !langAtLeast(w.g.pkg, "go1.18") {
			// No generic slices.Equal: the calls joined (a call is
			// never empty and holds no newline).
			w.pf("%sif got := %s(tt.%s); %s.Join(got, \"\\n\") != %s.Join(tt.%s, \"\\n\") {\n", indent, callsOf, f, strs, strs, callWants[k])
		} else {
			w.pf("%sif got := %s(tt.%s); !%s.Equal(got, tt.%s) {\n", indent, callsOf, f, w.imports.names["slices"], callWants[k])
		}
		w.pf("%s\tt.Errorf(\"%s: the calls of %s are %%q, want %%q\", got, tt.%s)\n%s}\n", indent, escape(shown), f, callWants[k], indent)
	}
	if afterUnchecked && len(after)+len(observed) > 0 {
		w.pf("%sif tt.%s {\n%s\treturn\n%s}\n", indent, afterUncheckedField, indent, indent)
	}
	for k, i := range after {
		f := p.fields[i]
		w.pf("%sif !%s.DeepEqual(tt.%s, tt.%s) {\n", indent, w.imports.names["reflect"], f, afterWants[k])
		w.pf("%s\tt.Errorf(\"after %s: %s = %%#v, want %%#v\", tt.%s, tt.%s)\n%s}\n", indent, escape(shown), f, f, afterWants[k], indent)
	}
	for k, o := range observed {
		f := p.fields[o.Param]
		w.pf("%sif got := tt.%s.%s(); got != tt.%s {\n", indent, f, o.Method, observedWants[k])
		w.pf("%s\tt.Errorf(\"after %s: %s.%s() = %%#v, want %%#v\", got, tt.%s)\n%s}\n", indent, escape(shown), f, o.Method, observedWants[k], indent)
	}
	w.pf("\t\t})\n\t}\n}\n")
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

// fieldLit renders the value of field i of a row; an isolated call site's
// stub also sets the site's variable as the table is built.
func (w *writer) fieldLit(p *plan, i int, v *value) string {
	lit := w.r.lit(v, false)
	first := len(p.fields) - len(p.t.Sandbox)
	if i < first {
		return lit
	}
	sv := p.t.Sandbox[i-first]
	return "func() " + w.r.typeString(p.t.Params[i].Type()) + " {\nf := " + lit + "\n" + w.sandboxQual(sv) + sv.Var + " = f\nreturn f\n}()"
}

// sandboxQual is the qualifier of the sandbox names of sv's package.
func (w *writer) sandboxQual(sv SandboxVar) string {
	if sv.Pkg.Path() != w.r.self {
		return w.imports.names[sv.Pkg.Path()] + "."
	}
	return ""
}

// sandboxOn renders the statements that start an isolated test: the
// packages' sandboxes on while the table is built (its values may be
// made by calls that reach isolated code) and off, with every site's
// variable reset, when the test ends.
func (w *writer) sandboxOn(p *plan) string {
	if len(p.t.Sandbox) == 0 {
		return ""
	}
	var lhs, set, reset []string
	seen := map[string]bool{}
	for _, sv := range p.t.Sandbox {
		sw := w.sandboxQual(sv) + sv.Switch
		if !seen[sw] {
			seen[sw] = true
			lhs, set, reset = append(lhs, sw), append(set, "true"), append(reset, "false")
		}
	}
	for _, sv := range p.t.Sandbox {
		lhs, reset = append(lhs, w.sandboxQual(sv)+sv.Var), append(reset, "nil")
	}
	l := strings.Join(lhs, ", ")
	return "\t" + strings.Join(lhs[:len(set)], ", ") + " = " + strings.Join(set, ", ") + "\n\tt.Cleanup(func() {\n\t\t" + l + " = " + strings.Join(reset, ", ") + "\n\t})\n"
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
