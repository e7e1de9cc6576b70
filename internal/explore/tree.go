package explore

import (
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// node is a run that may be expanded.
type node struct {
	run    int
	inputs []rt.Value
	res    rt.Result
	bound  int      // branches before bound are not negated
	score  int      // branch outcomes this run covered first
	prefix []prefix // prefix[i]: hash of the first i events
	// conds[i] is the condition of event i (whose value is its outcome),
	// nil for a concrete branch. The run's arena is dropped once decoded.
	conds []*sym.Expr
	// retry is the index of a branch this run diverged at whose negation
	// may be asked again although its prefix was tried: the run brought
	// new symbolic detail into its condition (a model refined from run
	// to run, such as a byte comparison whose slice grew). retryWas is the
	// negated condition asked before; retries counts retries along the
	// chain of runs, bounded by maxRetries.
	retry    int
	retryWas *sym.Expr
	retries  int
}

// maxRetries bounds the re-asked negations along one chain of runs.
const maxRetries = 4

// prefix is a hash of a sequence of branch outcomes.
type prefix [2]uint64

// PathKey identifies a path (pathKey): the hash of its explicit branch
// outcomes and its ending.
type PathKey = prefix

func (h prefix) add(site uint32, taken bool) prefix {
	x := uint64(site)<<1 | 1
	if taken {
		x |= 1 << 40
	}
	h[0] = (h[0] ^ x) * 0x100000001b3
	h[1] = (h[1]^x)*0x9e3779b97f4a7c15 + h[0]>>29
	return h
}

var prefix0 = prefix{0xcbf29ce484222325, 0x84222325cbf29ce4}

// child is a run to make: an input and the path it is predicted to take.
type child struct {
	inputs []rt.Value
	parent *node
	flip   int  // the parent's event negated; -1 for an initial input
	mutant bool // made by mutation (see mutate.go)
	// lengthFree marks the solution of a length-free query
	// (lengthfree.go): its run may leave the parent's prefix.
	lengthFree bool
	fuzzed     bool // found by Go's fuzzer (Target.Fuzzed)
	rerun      bool // an input of an earlier search (Target.Inputs)
}

// pathKey identifies a run's path: its explicit branch outcomes and how it
// ended.
func pathKey(res rt.Result) prefix {
	h := prefix0
	for _, ev := range res.Events {
		if !ev.Implicit {
			h = h.add(ev.Site, ev.Taken)
		}
	}
	h = h.add(uint32(res.Status), true)
	for _, b := range []byte(res.PanicAt) {
		h = h.add(uint32(b), false)
	}
	return h
}
