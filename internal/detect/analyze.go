package detect

import (
	"fmt"
	"go/ast"
	"time"

	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"

	"github.com/dowse-go/dowse/internal/detect/sources"
)

// Analyze runs the detector over the loaded program and streams the load
// errors, sites and summaries to h. It returns the time spent in the
// detection step proper (after loading and SSA construction).
func (p *Program) Analyze(cfg *sources.Config, opts Options, h Handler) (time.Duration, error) {
	for _, e := range p.Errors {
		if err := h.PackageError(e); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	s := newSession(p.Fset, p.prog, sources.NewClassifier(p.Fset, cfg))
	all := func(*ast.File) bool { return true }
	testOnly := func(f *ast.File) bool { return isTestFile(p.Fset.File(f.FileStart).Name()) }
	for _, u := range p.units {
		keep := testOnly
		if opts.IntoProduction {
			keep = all
		}
		s.addFiles(u.ssa, u.pkg.Syntax, u.pkg.TypesInfo, keep)
	}
	for _, u := range p.helpers {
		s.addFiles(u.ssa, u.pkg.Syntax, u.pkg.TypesInfo, all)
	}
	if opts.Interprocedural {
		funcs := make(map[*ssa.Function]bool, len(s.eng.added))
		for fn := range s.eng.added {
			funcs[fn] = true
		}
		cg := vta.CallGraph(funcs, nil)
		s.eng.addCallGraph(cg, func(fn *ssa.Function) bool { return s.eng.added[fn] })
	}
	s.eng.solve()
	type result struct {
		sites []*Site
		sum   *Summary
	}
	results := make([]result, len(p.units))
	for i, u := range p.units {
		su := &syntaxUnit{
			path:    u.path,
			fset:    p.Fset,
			files:   u.pkg.Syntax,
			info:    u.pkg.TypesInfo,
			modPath: u.modPath,
			root:    u.modDir,
		}
		if su.root == "" {
			su.root = p.root
		}
		sites := s.sites(su)
		results[i] = result{sites, s.summary(su, sites)}
	}
	elapsed := time.Since(start)
	for _, r := range results {
		for _, site := range r.sites {
			if err := h.Site(site); err != nil {
				return elapsed, fmt.Errorf("writing results: %w", err)
			}
		}
		if err := h.Summary(r.sum); err != nil {
			return elapsed, fmt.Errorf("writing results: %w", err)
		}
	}
	return elapsed, nil
}
