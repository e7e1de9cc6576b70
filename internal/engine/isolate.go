package engine

import (
	"path/filepath"
	"time"

	"github.com/dowse-go/dowse/internal/explore/output"
	"go/token"
	"go/types"
	"strings"

	"github.com/dowse-go/dowse/internal/emit"
	"github.com/dowse-go/dowse/rt"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/isolate"
	"github.com/dowse-go/dowse/internal/load"
)

// unitVariant is the variant of p whose files are instrumented (the
// package with its in-package tests, or without tests): its syntax trees
// are the ones the isolated calls are found in and rewritten.
func unitVariant(p *load.Package) *packages.Package {
	if p.Test != nil {
		return p.Test
	}
	return p.Plain
}

// isolation runs the effect analysis over the dependencies of pkgs and
// plans the isolation of each package's unit (the package, and with
// -unit the main module's packages it imports that the patterns name),
// then adds each isolated call site of the unit to the inputs of the
// package's PUTs and automatic targets.
func (g *runner) isolation(pkgs []*load.Package, loadFlags []string) (*isolate.Plan, error) {
	var roots []*packages.Package
	for _, p := range pkgs {
		if v := unitVariant(p); v != nil {
			roots = append(roots, v)
		}
	}
	fx, err := isolate.LoadEffects(g.cwd, nil, loadFlags, roots)
	if err != nil {
		return nil, err
	}
	plan := &isolate.Plan{Units: map[string]*isolate.Unit{}}
	cfg := g.cfg.Isolate
	analyse := func(v *packages.Package) (*isolate.Unit, error) {
		if u, done := plan.Units[v.PkgPath]; done {
			return u, nil
		}
		self := v.PkgPath
		u, err := isolate.Analyze(v, fx, cfg, func(path string) bool { return path == self || cfg.InUnit(path) })
		if err != nil {
			return nil, err
		}
		plan.Units[v.PkgPath] = u // nil: nothing external
		return u, nil
	}
	for _, p := range pkgs {
		v := unitVariant(p)
		if v == nil {
			continue
		}
		var units []*isolate.Unit
		u, err := analyse(v)
		if err != nil {
			return nil, err
		}
		units = append(units, u)
		for _, m := range isolate.Members(v, cfg) {
			mu, err := analyse(m)
			if err != nil {
				return nil, err
			}
			units = append(units, mu)
		}
		sites := 0
		reach := isolate.NewReach(v, p.XTest)
		for _, t := range p.Targets {
			if t.Err != nil || t.Layout == nil || t.Kind == load.KindFuzz {
				continue
			}
			t.Pkg = v.Types
			info := v.TypesInfo
			if t.External && p.XTest != nil {
				t.Pkg, info = p.XTest.Types, p.XTest.TypesInfo
			}
			// The package's sites the target may reach: from its
			// declaration and the functions that build its inputs (the
			// other sites return zero values, as in its isolated tests).
			var roots []*types.Func
			if t.Decl != nil {
				if fn, ok := info.Defs[t.Decl.Name].(*types.Func); ok {
					roots = append(roots, fn)
				}
			}
			for _, fn := range t.Funcs {
				roots = append(roots, fn)
			}
			reached := reach.From(roots...)
			for k, u := range units {
				if u == nil {
					continue
				}
				for _, s := range u.Sites {
					if k == 0 && len(roots) > 0 && !s.Reached(reached) {
						continue
					}
					sp := load.SandboxParam{Key: s.Key, Var: s.Var, Pkg: u.Types, Stub: s.Stub, Writes: s.Writes, Callee: calleeName(s.Callee)}
					if err := load.AddSandbox(t, sp); err != nil {
						g.logf("%s: isolated call %s.%s: %v: it returns zero values", t.Name, u.Path, s.Key, err)
					}
				}
			}
		}
		for _, u := range units {
			if u != nil {
				sites += len(u.Sites)
			}
		}
		g.logf("%s: %d isolated call sites in its unit", p.Path, sites)
	}
	for path, u := range plan.Units {
		if u == nil {
			delete(plan.Units, path)
		}
	}
	return plan, nil
}

// unitPatterns are the -unit patterns for the build (nil when the sandbox
// is off).
func (g *runner) unitPatterns() []string {
	if g.cfg.Isolate.Off {
		return nil
	}
	return g.cfg.Isolate.Unit
}

// ownLayout returns the layout of t's own parameters, without the
// isolated call sites' (load.AddSandbox), and the number of its leaves;
// for a target without sandbox parameters, its layout and -1.
func ownLayout(t *load.Target) (*rt.Layout, int) {
	if len(t.Sandbox) == 0 || t.Layout == nil {
		return t.Layout, -1
	}
	l := *t.Layout
	l.Params = l.Params[: len(l.Params)-len(t.Sandbox) : len(l.Params)-len(t.Sandbox)]
	leaves, err := l.Leaves()
	if err != nil {
		return &l, 0
	}
	return &l, len(leaves)
}

// writeIsolatedFile writes the isolated file of a source test file
// (docs/isolate.md): the rows of its targets that made isolated calls,
// each setting the sandbox variables of its package to the stubs the run
// had, in <stem>_dowse_isolated_test.go, built only with the tag
// dowse_isolated (dowse test sets it). With no such row, an isolated
// file of an earlier run is removed.
func (g *runner) writeIsolatedFile(p *load.Package, external bool, name string, targets []*load.Target, keep []string, byResult map[*load.Target]*Result) {
	variant := p.Test
	if external {
		variant = p.XTest
	}
	if variant == nil {
		variant = p.Plain
	}
	f := emit.File{Pkg: variant.Types, Dir: p.Dir, SourceFile: name, Keep: keep, Isolated: true}
	counts := map[*load.Target]int{}
	for _, t := range targets {
		r := byResult[t]
		if len(t.Sandbox) == 0 || r == nil || r.Report == nil || t.Kind == load.KindFuzz {
			continue
		}
		et := emit.Target{Name: t.Name, Variadic: t.Variadic, Layout: t.Layout, Dyn: t.Dyn, Mocks: t.Mocks, Vars: t.Vars}
		et.Params = append(et.Params, t.Params...)
		for _, sp := range t.Sandbox {
			et.Params = append(et.Params, types.NewVar(token.NoPos, variant.Types, "iso_"+strings.ReplaceAll(sp.Key, ".", "_"), sp.Stub))
			et.Sandbox = append(et.Sandbox, emit.SandboxVar{Pkg: sp.Pkg, Var: sp.Var, Switch: isolate.Switch})
		}
		if t.Kind.Auto() {
			et.Auto, et.Results, et.Method = true, t.Results, t.Kind == load.KindMethod
			et.Call, et.Funcs, et.Restore = t.Expr, t.Funcs, t.Writes
			if et.Method {
				et.Call = t.Expr[strings.LastIndex(t.Expr, ".")+1:]
			}
		}
		root := p.Module.Dir
		for _, row := range r.Report.Rows {
			if row.Isolated > 0 {
				// An automatic target's results are not asserted here: the
				// rows are not confirmed by running them again (as the
				// ordinary file's are), and code can depend on state the
				// sandbox does not control (a package-level random source).
				et.Rows = append(et.Rows, emit.Row{Inputs: row.Inputs, Status: row.Status, Messages: row.Messages, PanicAt: slashRel(root, row.PanicAt), PathCondition: row.PathCondition})
			}
		}
		for _, fl := range r.Report.Failures {
			if fl.Row < 0 && fl.Isolated > 0 {
				et.Rows = append(et.Rows, emit.Row{Inputs: fl.Inputs, Status: fl.Status, Messages: fl.Messages, PanicAt: slashRel(root, fl.PanicAt), PathCondition: fl.PathCondition})
			}
		}
		if len(et.Rows) == 0 {
			continue // no row made an isolated call: nothing to import or write
		}
		counts[t] = len(et.Rows)
		f.Targets = append(f.Targets, et)
	}
	if len(f.Targets) == 0 && !isolatedFileExists(p.Dir, name) {
		return
	}
	res, err := emit.Write(f, emit.Options{})
	if err != nil {
		g.warnf("warning: writing the isolated tests of %s: %v", name, err)
		return
	}
	for _, c := range res.Changed {
		g.changed[c] = true
	}
	omitted := map[string]int{}
	for _, o := range res.Omitted {
		omitted[o.Target]++
	}
	for t, n := range counts {
		r := byResult[t]
		r.Isolated = n - omitted[t.Name]
		r.Tests += r.Isolated
		r.Files = append(r.Files, targetFiles(t, r, failureTestName(t), res.Files)...)
		r.Changed = append(r.Changed, targetFiles(t, r, failureTestName(t), res.Changed)...)
	}
}

// isolationReport is the report of the isolation sandbox for the unit of
// result r (nil if the sandbox is off or isolates nothing there).
func (g *runner) isolationReport(p *load.Package, r *Result, buildTime time.Duration) *output.Isolation {
	if g.plan == nil {
		return nil
	}
	u := g.plan.Units[p.Path]
	if u == nil || len(u.Sites) == 0 {
		return nil // nothing isolated: the output stays as without the sandbox
	}
	iso := &output.Isolation{Unit: u.Path, Externals: len(u.Externals), Sites: len(u.Sites), Members: u.Members,
		Rows: r.Isolated, AnalysisSeconds: g.isolateTime.Seconds(), BuildSeconds: buildTime.Seconds()}
	for _, e := range u.Externals {
		if e.Isolated {
			iso.Isolated++
			iso.Calls = append(iso.Calls, e.Name+" ("+e.Why+")")
		}
	}
	return iso
}

// isolatedFileExists reports whether the generated isolated file of the
// source test file name exists in dir (an earlier run wrote it: a run
// without isolated rows removes it).
func isolatedFileExists(dir, name string) bool {
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".go"), "_test")
	matches, _ := filepath.Glob(filepath.Join(dir, stem+"_dowse*_isolated_test.go"))
	return len(matches) > 0
}

// calleeName is f as people write it: "os.ReadFile", "(*sql.DB).Query",
// "time.Time.Add"; "" for nil.
func calleeName(f *types.Func) string {
	if f == nil {
		return ""
	}
	sig, _ := f.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		if f.Pkg() == nil {
			return f.Name()
		}
		return f.Pkg().Name() + "." + f.Name()
	}
	recv := types.TypeString(sig.Recv().Type(), func(p *types.Package) string { return p.Name() })
	if strings.HasPrefix(recv, "*") {
		recv = "(" + recv + ")"
	}
	return recv + "." + f.Name()
}
