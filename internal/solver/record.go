package solver

import (
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// EnvRecord names a directory: a chain made by New while it is set writes
// every query it is asked, with its answer, to a new corpus file there
// (bench/solverbench replays such corpora to measure the solver).
const EnvRecord = "DOWSE_RECORD_QUERIES"

// RecordedQuery is one query of a corpus, with its terms as an arena.
type RecordedQuery struct {
	Nodes  []rt.Node
	Roots  []rt.S // the constraints, in order
	Leaves []rt.Leaf
	Seed   []rt.Value
	Status Status // the answer the recording chain gave
}

// Recording is a Solver decorator that writes every query it passes on,
// and the answer, to a corpus stream (gob-encoded RecordedQuery values).
type Recording struct {
	next Solver
	mu   sync.Mutex
	enc  *gob.Encoder
	err  error // the first write error; recording stops there
}

// NewRecording returns a Recording writing to w.
func NewRecording(next Solver, w io.Writer) *Recording {
	return &Recording{next: next, enc: gob.NewEncoder(w)}
}

// Solve implements Solver.
func (r *Recording) Solve(ctx context.Context, q Query) (Result, error) {
	res, err := r.next.Solve(ctx, q)
	if err != nil {
		return res, err
	}
	nodes, roots := sym.Flatten(q.Constraints)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = r.enc.Encode(RecordedQuery{Nodes: nodes, Roots: roots, Leaves: q.Leaves, Seed: q.Seed, Status: res.Status})
	}
	return res, nil
}

// ReadCorpus reads the queries of a corpus stream, building their terms
// in c.
func ReadCorpus(rd io.Reader, c *sym.Context) ([]Query, []Status, error) {
	dec := gob.NewDecoder(rd)
	var qs []Query
	var sts []Status
	for {
		var rq RecordedQuery
		if err := dec.Decode(&rq); err != nil {
			if errors.Is(err, io.EOF) {
				return qs, sts, nil
			}
			return qs, sts, fmt.Errorf("reading query %d: %w", len(qs)+1, err)
		}
		terms, err := c.Decode(rq.Nodes)
		if err != nil {
			return qs, sts, fmt.Errorf("query %d: %w", len(qs)+1, err)
		}
		q := Query{Leaves: rq.Leaves, Seed: rq.Seed}
		for _, s := range rq.Roots {
			if int(s) >= len(terms) || terms[s] == nil {
				return qs, sts, fmt.Errorf("query %d: constraint %d out of its arena", len(qs)+1, s)
			}
			q.Constraints = append(q.Constraints, terms[s])
		}
		qs = append(qs, q)
		sts = append(sts, rq.Status)
	}
}

// recordFile opens a new corpus file in the directory EnvRecord names, or
// returns nil if it is not set or the file cannot be made (recording is a
// measuring aid: it never stops an exploration).
func recordFile() *os.File {
	dir := os.Getenv(EnvRecord)
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil
	}
	f, err := os.CreateTemp(dir, "queries-*.gob")
	if err != nil {
		return nil
	}
	return f
}
