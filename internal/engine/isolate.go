package engine

import (
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
// plans the isolation of each package (its own unit), then adds each
// isolated call site's results to the inputs of the package's PUTs and
// automatic targets.
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
	for _, p := range pkgs {
		v := unitVariant(p)
		if v == nil {
			continue
		}
		self := p.Path
		u, err := isolate.Analyze(v, fx, g.cfg.Isolate, func(path string) bool { return path == self })
		if err != nil {
			return nil, err
		}
		if u == nil {
			continue
		}
		plan.Units[p.Path] = u
		for _, t := range p.Targets {
			if t.Err != nil || t.Layout == nil || t.Kind == load.KindFuzz {
				continue
			}
			t.Pkg = v.Types
			if t.External && p.XTest != nil {
				t.Pkg = p.XTest.Types
			}
			for _, s := range u.Sites {
				sp := load.SandboxParam{Key: s.Key, Var: s.Var, Pkg: v.Types, Stub: s.Stub, Writes: s.Writes}
				if err := load.AddSandbox(t, sp); err != nil {
					g.logf("%s: isolated call %s: %v: it returns zero values", t.Name, s.Key, err)
				}
			}
		}
		g.logf("%s: %d isolated call sites", p.Path, len(u.Sites))
	}
	return plan, nil
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
