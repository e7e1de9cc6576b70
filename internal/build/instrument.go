package build

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/instrument"
)

// SourceInstrumenter is the Instrumenter of package instrument: the
// source rewrite that reports shadows and branches to the runtime.
//
// The rewrite changes the loaded syntax trees, so a package variant is
// rewritten once per SourceInstrumenter and its result reused by every
// binary it goes into (with -instrument-module, a package of the module
// imported by several explored packages). Branch sites are numbered across
// all binaries, so a reused package keeps its site IDs. Use one
// SourceInstrumenter per load; it is safe for concurrent use.
type SourceInstrumenter struct {
	mu    sync.Mutex
	sites instrument.Sites
	done  map[*packages.Package]*rewrite
}

// rewrite is the instrumented form of one package variant.
type rewrite struct {
	files map[string][]byte
	sites []Site
}

// Instrument implements Instrumenter. Calls between the given packages
// pass shadows; calls to any other package are concrete.
func (s *SourceInstrumenter) Instrument(pkgs []*packages.Package) (map[string][]byte, []Site, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done == nil {
		s.done = map[*packages.Package]*rewrite{}
	}
	inst := map[string]bool{}
	for _, p := range pkgs {
		inst[p.PkgPath] = true
	}
	opts := instrument.Options{Instrumented: func(path string) bool { return inst[path] }}
	files := map[string][]byte{}
	var sites []Site
	for _, p := range pkgs {
		r, ok := s.done[p]
		if !ok {
			var err error
			if r, err = s.instrument(p, opts); err != nil {
				return nil, nil, err
			}
			s.done[p] = r
		}
		for f, src := range r.files {
			if _, dup := files[f]; dup {
				return nil, nil, fmt.Errorf("%s instrumented twice", f)
			}
			files[f] = src
		}
		sites = append(sites, r.sites...)
	}
	return files, sites, nil
}

// instrument rewrites one package variant, warning about files the
// rewrite leaves as they are.
func (s *SourceInstrumenter) instrument(p *packages.Package, opts instrument.Options) (*rewrite, error) {
	firstSite, firstSkipped := len(s.sites.List), len(s.sites.Skipped)
	m, err := instrument.PackageWith(p, &s.sites, opts)
	if err != nil {
		return nil, err
	}
	for _, sk := range s.sites.Skipped[firstSkipped:] {
		fmt.Fprintf(os.Stderr, "dowse: warning: %s; the file is left uninstrumented (its code runs concretely)\n", sk)
	}
	r := &rewrite{files: m}
	for _, site := range s.sites.List[firstSite:] {
		r.sites = append(r.sites, Site{ID: site.ID, Pos: site.Pos, Kind: site.Kind})
	}
	return r, nil
}
