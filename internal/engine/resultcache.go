package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/dowse-go/dowse/internal/explore"
	"github.com/dowse-go/dowse/internal/explore/output"
	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/rt"
)

// entry is what the result cache keeps of a target: what its summary
// and its Result say once its files are written.
type entry struct {
	Summary     *output.Target // Cached false, Unchanged nil
	Files       []string       // absolute
	Tests       int
	FailureTest string
	// Resume is set for a target the budget or the run's stop cut
	// short: the next run explores it again from there instead of
	// replaying Summary.
	Resume *storedResume `json:",omitempty"`
}

// storedResume is an explore.Resume as the cache keeps it: strings as
// bytes, which JSON keeps as they are (a string that is not UTF-8 would
// not survive as a JSON string).
type storedResume struct {
	Leaves      []rt.Leaf
	Inputs      [][]storedValue
	MaxLen      int
	Runs, Paths int
	Covered     []explore.Branch
	Known       []byte // explore.PathKey values, 16 bytes each
	Searches    int
}

type storedValue struct {
	B uint64 `json:",omitempty"`
	S []byte `json:",omitempty"`
}

func encodeResume(r *explore.Resume) *storedResume {
	s := &storedResume{Leaves: r.Leaves, MaxLen: r.MaxLen, Runs: r.Runs, Paths: r.Paths, Covered: r.Covered, Searches: r.Searches}
	s.Known = make([]byte, 0, 16*len(r.Known))
	for _, k := range r.Known {
		s.Known = binary.LittleEndian.AppendUint64(s.Known, k[0])
		s.Known = binary.LittleEndian.AppendUint64(s.Known, k[1])
	}
	for _, in := range r.Inputs {
		vs := make([]storedValue, len(in))
		for i, v := range in {
			vs[i] = storedValue{B: v.Bits}
			if v.Str != "" {
				vs[i].S = []byte(v.Str)
			}
		}
		s.Inputs = append(s.Inputs, vs)
	}
	return s
}

// decode is the explore.Resume s keeps; an entry whose inputs do not
// fit its leaves is an error.
func (s *storedResume) decode() (*explore.Resume, error) {
	r := &explore.Resume{Leaves: s.Leaves, MaxLen: s.MaxLen, Runs: s.Runs, Paths: s.Paths, Covered: s.Covered, Searches: s.Searches, Stored: true}
	if len(s.Known)%16 != 0 {
		return nil, fmt.Errorf("stored paths of %d bytes", len(s.Known))
	}
	for b := s.Known; len(b) > 0; b = b[16:] {
		r.Known = append(r.Known, explore.PathKey{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])})
	}
	for _, vs := range s.Inputs {
		if len(vs) != len(s.Leaves) {
			return nil, fmt.Errorf("a stored input has %d values for %d leaves", len(vs), len(s.Leaves))
		}
		in := make([]rt.Value, len(vs))
		for i, v := range vs {
			in[i] = rt.Value{Bits: v.B, Str: string(v.S)}
		}
		r.Inputs = append(r.Inputs, in)
	}
	return r, nil
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
	e = &entry{Summary: &s, Files: e.Files, Tests: e.Tests, FailureTest: e.FailureTest, Resume: e.Resume}
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
