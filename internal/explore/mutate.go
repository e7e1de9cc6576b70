package explore

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Mutation. When the concolic search has nothing left to expand but the
// target is not exhaustive (a concretization, a divergence, a branch the
// solver could not decide), the time left is not given up: the explorer
// mutates the inputs that found something, as a coverage-guided fuzzer
// does, and runs the mutants. A mutant that reaches a branch prefix no run
// reached goes back to the concolic frontier, so the solver takes over
// again from behaviour the mutation found (hybrid fuzzing, as in Driller
// and SAGE's successors). Mutants are built from the leaves' domains
// (lengths and strings within their bounds) and from a dictionary of the
// constants in the path conditions seen so far: the values the code
// compares its inputs with.
//
// The phase stops at the time or run bound, or — except for fuzz targets,
// which go on until the time bound as go test -fuzz does — at a plateau:
// when the mutants run since the last discovery are at least minPatience
// and at least as many as all the mutants before it (patience grows with
// success). Mutation is deterministic (its random source is seeded by
// Config.Seed), so without a time bound two runs agree.

// Limits of mutation.
const (
	mutantBatch = 32      // mutants per batch
	minPatience = 1000    // mutant runs without a discovery before the phase may stop
	maxPool     = 1024    // inputs kept to mutate
	maxDict     = 256     // dictionary entries of each kind
	maxDictWalk = 4096    // expression nodes visited per run to fill the dictionary
	maxSeen     = 1 << 20 // expression nodes visited in all
)

// mutator holds the state of the mutation phase.
type mutator struct {
	rng     *rand.Rand
	pool    [][]rt.Value // inputs that found a new branch outcome or path
	ints    []uint64     // integer constants of the path conditions
	strs    []string     // string constants of the path conditions
	seen    map[uint64]bool
	started bool // the phase has begun
	runs    int  // mutant runs
	lastNew int  // mutant runs when the last discovery was made
	// lastCover is the run that last covered a new branch outcome, and
	// owed the time mutants are owed for the expansions made while the
	// two take turns (see interleave).
	lastCover int
	owed      time.Duration
}

func newMutator(seed int64) *mutator {
	return &mutator{rng: rand.New(rand.NewPCG(uint64(seed), 0x6d757461)), seen: map[uint64]bool{}}
}

// keep adds an input that found something to the pool.
func (m *mutator) keep(in []rt.Value) {
	if len(m.pool) < maxPool {
		m.pool = append(m.pool, in)
	} else {
		m.pool[m.rng.IntN(maxPool)] = in
	}
}

// harvest adds the constants of conds to the dictionary.
func (m *mutator) harvest(conds []*sym.Expr) {
	budget := maxDictWalk
	var walk func(e *sym.Expr)
	walk = func(e *sym.Expr) {
		if e == nil || budget <= 0 || len(m.seen) >= maxSeen || m.seen[e.ID()] {
			return
		}
		budget--
		m.seen[e.ID()] = true
		switch e.Op() {
		case rt.OpConst:
			if e.Kind() != rt.KBool && len(m.ints) < maxDict && !slices.Contains(m.ints, e.Bits()) {
				m.ints = append(m.ints, e.Bits())
			}
			return
		case rt.OpStr:
			if e.Str() != "" && len(m.strs) < maxDict && !slices.Contains(m.strs, e.Str()) {
				m.strs = append(m.strs, e.Str())
			}
			return
		}
		for i := 0; i < e.NumArgs(); i++ {
			walk(e.Arg(i))
		}
	}
	for _, c := range conds {
		walk(c)
	}
}

// plateau reports whether the phase has stopped finding anything.
func (m *mutator) plateau() bool {
	since := m.runs - m.lastNew
	return since >= minPatience && since >= m.lastNew
}

// batch returns the next mutants.
func (m *mutator) batch(leaves []rt.Leaf) [][]rt.Value {
	if len(m.pool) == 0 || len(leaves) == 0 {
		return nil
	}
	out := make([][]rt.Value, 0, mutantBatch)
	for range mutantBatch {
		in := slices.Clone(m.pool[m.rng.IntN(len(m.pool))])
		for range 1 + m.rng.IntN(4) {
			m.mutate(leaves, in)
		}
		out = append(out, in)
	}
	return out
}

// mutate changes one leaf of in (a byte slice counts as one leaf).
func (m *mutator) mutate(leaves []rt.Leaf, in []rt.Value) {
	i := byteSliceOf(leaves, m.rng.IntN(len(leaves)))
	l := leaves[i]
	switch {
	case l.Choice || l.K == rt.KBool:
		in[i].Bits ^= 1
	case l.IsLen:
		if n := byteElems(leaves, i); n > 0 {
			b := make([]byte, in[i].Bits)
			for k := range b {
				b[k] = byte(in[i+1+k].Bits)
			}
			b = []byte(m.mutateString(string(b), l.Max))
			in[i].Bits = uint64(len(b))
			for k := 0; k < n; k++ {
				var v byte
				if k < len(b) {
					v = b[k]
				}
				in[i+1+k].Bits = uint64(v)
			}
			return
		}
		n := int(in[i].Bits)
		switch m.rng.IntN(3) {
		case 0:
			n++
		case 1:
			n--
		default:
			n = m.rng.IntN(l.Max + 1)
		}
		in[i].Bits = uint64(min(max(n, 0), l.Max))
	case l.K == rt.KString:
		in[i].Str = m.mutateString(in[i].Str, l.Max)
	case l.Float:
		in[i].Bits = m.mutateFloat(l.K, in[i].Bits)
	case l.K.Integer():
		in[i].Bits = truncate(l.K, m.mutateInt(in[i].Bits))
	}
}

// byteSliceOf is the length leaf of the byte slice whose element leaf i
// is, or i: a byte slice is mutated as a whole.
func byteSliceOf(leaves []rt.Leaf, i int) int {
	if leaves[i].K != rt.KUint8 || leaves[i].IsLen {
		return i
	}
	for j := i - 1; j >= 0; j-- {
		if leaves[j].IsLen {
			if n := byteElems(leaves, j); n > 0 && i-j <= n {
				return j
			}
			return i
		}
		if leaves[j].K != rt.KUint8 {
			return i
		}
	}
	return i
}

// byteElems is the number of byte elements that follow the length leaf i
// of a []byte (0 if it is not one).
func byteElems(leaves []rt.Leaf, i int) int {
	n := leaves[i].Max
	if n <= 0 || i+n >= len(leaves) {
		return 0
	}
	for k := 1; k <= n; k++ {
		if l := leaves[i+k]; l.K != rt.KUint8 || l.IsLen || l.Choice || l.Param != leaves[i].Param {
			return 0
		}
	}
	return n
}

// interesting are integer values that tell behaviours apart.
var interesting = []uint64{0, 1, 2, 7, 8, 9, 10, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 1000, 1024, 4096, 32767, 32768, 65535, 65536,
	1<<31 - 1, 1 << 31, 1<<32 - 1, 1<<63 - 1, 1 << 63, ^uint64(0), ^uint64(0) - 1}

func (m *mutator) mutateInt(v uint64) uint64 {
	switch m.rng.IntN(6) {
	case 0:
		if len(m.ints) > 0 {
			c := m.ints[m.rng.IntN(len(m.ints))]
			return c + uint64(m.rng.IntN(3)) - 1 // c-1, c or c+1
		}
		return v + 1
	case 1:
		return v ^ 1<<m.rng.IntN(64)
	case 2:
		return v + uint64(1+m.rng.IntN(35))
	case 3:
		return v - uint64(1+m.rng.IntN(35))
	case 4:
		return interesting[m.rng.IntN(len(interesting))]
	}
	return m.rng.Uint64()
}

// interestingFloats are float values that tell behaviours apart.
var interestingFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, 10, 100, 0.1, 1e-9, 1e9, 1e21,
	math.MaxFloat32, math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}

// mutateFloat mutates the IEEE 754 bits of a float32 (k KUint32) or
// float64: an interesting value, a constant of the dictionary, a small
// step, a scaling, or a flipped bit.
func (m *mutator) mutateFloat(k rt.Kind, bits uint64) uint64 {
	f := math.Float64frombits(bits)
	if k == rt.KUint32 {
		f = float64(math.Float32frombits(uint32(bits)))
	}
	switch m.rng.IntN(5) {
	case 0:
		f = interestingFloats[m.rng.IntN(len(interestingFloats))]
	case 1:
		if len(m.ints) > 0 {
			f = float64(int64(m.ints[m.rng.IntN(len(m.ints))]))
		} else {
			f++
		}
	case 2:
		f += float64(m.rng.IntN(21) - 10)
	case 3:
		f *= []float64{-1, 0.5, 2, 10, 0.1}[m.rng.IntN(5)]
	default:
		if k == rt.KUint32 {
			return uint64(math.Float32bits(float32(f)) ^ 1<<m.rng.IntN(32))
		}
		return math.Float64bits(f) ^ 1<<m.rng.IntN(64)
	}
	if k == rt.KUint32 {
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// printable bytes mutations favour: what parsers look for.
const printable = "0123456789abcdefxyzABCDEFXYZ .,:;-+_/\\*?!#@$%&=~^|'\"`()[]{}<>\t\n\r\x00\x7f\xff"

func (m *mutator) mutateString(s string, maxLen int) string {
	b := []byte(s)
	byteOf := func() byte {
		switch m.rng.IntN(4) {
		case 0:
			return byte(m.rng.IntN(256))
		case 1:
			if len(m.ints) > 0 {
				return byte(m.ints[m.rng.IntN(len(m.ints))])
			}
		}
		return printable[m.rng.IntN(len(printable))]
	}
	pos := func(n int) int { return m.rng.IntN(n + 1) }
	switch m.rng.IntN(8) {
	case 0, 1: // replace a byte
		if len(b) > 0 {
			b[m.rng.IntN(len(b))] = byteOf()
			break
		}
		fallthrough
	case 2: // insert a byte
		p := pos(len(b))
		b = slices.Insert(b, p, byteOf())
	case 3: // delete a range
		if len(b) > 0 {
			p := m.rng.IntN(len(b))
			b = slices.Delete(b, p, p+1+m.rng.IntN(min(4, len(b)-p)))
		}
	case 4: // insert a dictionary string
		if len(m.strs) > 0 {
			p := pos(len(b))
			b = slices.Insert(b, p, []byte(m.strs[m.rng.IntN(len(m.strs))])...)
			break
		}
		b = append(b, byteOf())
	case 5: // overwrite with a dictionary string
		if len(m.strs) > 0 {
			d := m.strs[m.rng.IntN(len(m.strs))]
			p := pos(len(b))
			b = append(b[:p], append([]byte(d), b[min(p+len(d), len(b)):]...)...)
			break
		}
		b = append(b, byteOf())
	case 6: // duplicate a chunk
		if len(b) > 0 {
			p := m.rng.IntN(len(b))
			q := p + 1 + m.rng.IntN(len(b)-p)
			b = slices.Insert(b, pos(len(b)), slices.Clone(b[p:q])...)
		}
	case 7: // splice with another input's string
		other := m.pool[m.rng.IntN(len(m.pool))]
		for _, v := range other {
			if v.Str != "" {
				p := pos(len(b))
				q := m.rng.IntN(len(v.Str) + 1)
				b = append(b[:p], v.Str[q:]...)
				break
			}
		}
	}
	if len(b) > maxLen {
		b = b[:maxLen]
	}
	return string(b)
}

// stallRuns is how many runs without a new branch outcome make the
// concolic search stalled.
const stallRuns = 200

// interleave reports whether the next batch should be mutants although
// the concolic frontier is not empty: expansions and mutant batches take
// turns, mutants getting as much time as the expansions took (account),
// when the target is already known not to be exhaustive (a
// concretization, a divergence, an undecided branch: the search cannot
// reach everything by itself) and the search has gone stallRuns runs
// without a new branch outcome, or when half the time bound is spent. A
// search that may still be exhaustive is otherwise left alone: mutants
// cannot find what it will.
func (e *explorer) interleave() bool {
	if e.cfg.NoMutation || e.cfg.MaxTime <= 0 || len(e.leaves) == 0 {
		return false
	}
	return e.sharing() && e.mut.owed > 0
}

// sharing reports whether expansions and mutants take turns.
func (e *explorer) sharing() bool {
	stalled := len(e.hit) > 0 && e.runs-e.mut.lastCover >= stallRuns
	// A search that has used half its time without finishing will likely
	// not finish (often one that waits on the solver): mutants get turns
	// in the other half.
	late := time.Since(e.start) > e.cfg.MaxTime/2
	return stalled || late
}

// account counts a turn of d: while expansions and mutants take turns,
// mutants are owed as much time as the expansions took (a slow solver
// does not starve them).
func (e *explorer) account(mutants bool, d time.Duration) {
	switch {
	case mutants:
		e.mut.owed -= d
	case !e.cfg.NoMutation && e.cfg.MaxTime > 0 && e.sharing():
		e.mut.owed += d
	}
}

// mutating reports whether the explorer goes on with mutants: only under
// a time bound, for a target not yet explored exhaustively, while the
// phase keeps finding things. final says that the concolic frontier is
// empty: the bound checks run then (while there is time for them), and
// with a caller that raises the bound, a longer bound is a better use of
// the time than mutants within this one.
func (e *explorer) mutating(ctx context.Context, final bool) bool {
	if e.cfg.NoMutation || e.cfg.MaxTime <= 0 || len(e.leaves) == 0 || final && len(e.hit) == 0 {
		return false // a target without inputs has nothing to mutate
	}
	if final && !e.boundsChecked {
		e.boundsChecked = true
		e.checkBounds(ctx)
		if e.cfg.Raisable && (len(e.rep.BoundLimited) > 0 || len(e.rep.Longer) > 0 && e.plentyOfTime()) {
			return false
		}
	}
	if !e.mut.started {
		e.mut.started = true
		if len(e.mut.pool) == 0 {
			e.mut.keep(zeroInputs(e.leaves))
		}
	}
	return e.target.Fuzz || !e.mut.plateau()
}

// plentyOfTime reports whether less than a quarter of the time bound is
// spent.
func (e *explorer) plentyOfTime() bool {
	return e.cfg.MaxTime <= 0 || time.Since(e.start) < e.cfg.MaxTime/4
}
