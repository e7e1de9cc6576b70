package engine

import (
	"bytes"
	"encoding/json"

	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/load"
)

// entry is what the result cache keeps of a target: what its summary
// and its Result say once its files are written.
type entry struct {
	Summary     *output.Target // Cached false, Unchanged nil
	Files       []string       // absolute
	Tests       int
	FailureTest string
}

// pkgKey hashes what p's targets depend on, with p's files as they are
// now; it is nil without a cache or if it cannot be computed (then p's
// results are neither read nor kept).
func (g *runner) pkgKey(p *load.Package) []byte {
	if g.keys == nil {
		return nil
	}
	k, err := g.keys.pkg(p)
	if err != nil {
		g.warnf("warning: %s: results are not cached: %v", p.Path, err)
		return nil
	}
	return k
}

// lookup returns the cached result of r's target, or nil.
func (g *runner) lookup(pkgKey []byte, r *Result) *entry {
	if pkgKey == nil {
		return nil
	}
	data, ok := g.cfg.Cache.Get(g.keys.target(pkgKey, r.Package, r.Target))
	if !ok {
		return nil
	}
	var e entry
	if err := json.Unmarshal(data, &e); err != nil || e.Summary == nil {
		return nil // written by another version: a miss
	}
	g.logf("cached %s", r.Target.Name)
	return &e
}

// store keeps r's result under its key with the package hash pkgKey
// (that of the files as this run leaves them).
func (g *runner) store(pkgKey []byte, r *Result, e *entry) {
	s := *e.Summary
	s.Cached, s.Unchanged = false, nil
	e = &entry{Summary: &s, Files: e.Files, Tests: e.Tests, FailureTest: e.FailureTest}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		g.warnf("warning: %s: caching the result: %v", r.Target.Name, err)
		return
	}
	if err := g.cfg.Cache.Put(g.keys.target(pkgKey, r.Package, r.Target), b.Bytes()); err != nil {
		g.warnf("warning: %s: %v", r.Target.Name, err)
		return
	}
	g.puts++
}

// replay fills r from its cache entry: the stored summary, marked
// cached, with the files this run did not rewrite unchanged.
func (g *runner) replay(r *Result, e *entry) {
	s := *e.Summary
	s.Cached = true
	s.Unchanged = nil
	for _, f := range e.Files {
		if !g.changed[f] {
			s.Unchanged = append(s.Unchanged, output.Rel(g.cwd, f))
		}
	}
	r.Summary = &s
	r.Files, r.Tests, r.FailureTest = e.Files, e.Tests, e.FailureTest
}
