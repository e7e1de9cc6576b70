package build

import (
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/instrument"
	"github.com/dowse-go/dowse/internal/isolate"
)

// SourceInstrumenter is the Instrumenter of package instrument: the
// source rewrite that reports shadows and branches to the runtime.
//
// The rewrite changes the loaded syntax trees, and the loader shares the
// trees of a package's files between the package and its test variant. So
// each file is rewritten once per SourceInstrumenter and the result reused
// by every binary it goes into: the package under test's own binary, and
// with -instrument-module the binaries of the other packages that import
// it. Branch sites are numbered across all binaries, so a reused file
// keeps its site IDs. Use one SourceInstrumenter per load; it is safe for
// concurrent use.
type SourceInstrumenter struct {
	// Sandbox is the isolation plan (nil: none): isolated calls are
	// rewritten into sandbox calls, and the sandbox file of each unit
	// package goes into every binary that has the package's rewritten
	// files.
	Sandbox *isolate.Plan
	// Stderr receives the warnings about files left uninstrumented
	// (nil: os.Stderr).
	Stderr io.Writer
	mu     sync.Mutex
	sites  instrument.Sites
	files  map[string]*rewrite // by absolute path
}

// rewrite is the instrumented form of one file: its new source (nil when
// the file is used as it is) and the branch sites its rewrite numbered.
type rewrite struct {
	src   []byte
	sites []Site
}

// Instrument implements Instrumenter. Calls between the given packages
// pass shadows; calls to any other package are concrete.
func (s *SourceInstrumenter) Instrument(pkgs []*packages.Package) (map[string][]byte, []Site, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]*rewrite{}
	}
	inst := map[string]bool{}
	for _, p := range pkgs {
		inst[p.PkgPath] = true
	}
	opts := instrument.Options{
		Policy: instrument.DefaultPolicy(func(path string) bool { return inst[path] }),
		Skip:   func(file string) bool { return s.files[file] != nil },
	}
	if s.Sandbox != nil {
		opts.Sandbox = s.Sandbox
	}
	files := map[string][]byte{}
	var sites []Site
	for _, p := range pkgs {
		if err := s.instrument(p, opts); err != nil {
			return nil, nil, err
		}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			r := s.files[name]
			if r == nil || r.src == nil {
				continue
			}
			if _, dup := files[name]; dup {
				continue // in two variants of one binary
			}
			files[name] = r.src
			sites = append(sites, r.sites...)
		}
		if u := s.sandboxOf(p.PkgPath); u != nil && u.Src != nil {
			files[u.File] = u.Src
		}
	}
	return files, sites, nil
}

// instrument rewrites the files of package variant p that no earlier call
// rewrote, warning about files the rewrite leaves as they are.
func (s *SourceInstrumenter) instrument(p *packages.Package, opts instrument.Options) error {
	firstSite, firstSkipped := len(s.sites.List), len(s.sites.Skipped)
	m, err := instrument.PackageWith(p, &s.sites, opts)
	if err != nil {
		return err
	}
	for _, sk := range s.sites.Skipped[firstSkipped:] {
		w := s.Stderr
		if w == nil {
			w = os.Stderr
		}
		fmt.Fprintf(w, "dowse: warning: %s; the file is left uninstrumented (its code runs concretely)\n", sk)
	}
	// Every file of p is done now, rewritten or not: a file the rewrite
	// gave up on may be half rewritten and must not be tried again.
	for _, f := range p.Syntax {
		name := p.Fset.File(f.Pos()).Name()
		if s.files[name] == nil {
			s.files[name] = &rewrite{src: m[name]}
		}
	}
	for _, site := range s.sites.List[firstSite:] {
		if r := s.files[site.File]; r != nil {
			r.sites = append(r.sites, Site{ID: site.ID, Pos: site.Pos, Kind: site.Kind})
		}
	}
	return nil
}

// sandboxOf returns the isolation plan of package path, if any.
func (s *SourceInstrumenter) sandboxOf(path string) *isolate.Unit {
	if s.Sandbox == nil {
		return nil
	}
	return s.Sandbox.Units[path]
}
