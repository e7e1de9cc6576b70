package rt

import (
	"slices"
	"strconv"
	"strings"
)

// Pools of leaves.
//
// The alternatives of an interface value (ShapeIface) are its dynamic
// types, and a value has one of them: laid out side by side, each with
// its leaves, they cost the sum of their leaves although a run reads
// those of one. A pooled interface (Shape.Pool, set by SetBounds in
// internal/load when the layout would not fit MaxLeaves otherwise) lays
// them over one pool of leaves instead:
//
//   - every leaf has a class: its kind, whether it is a length, a choice
//     or a float's bits, its Max, whether it is cut, and the kind of the
//     last step of its path when that step says what the leaf is (a
//     length, a dynamic type, a pointer's choice, an error's message, a
//     built value's method choice);
//   - the pool holds, for each class in the order the alternatives (in
//     Outs order, each in its flattening order) first use it, as many
//     leaves as the alternative that uses the class most has;
//   - alternative k's j-th leaf of a class is the pool's j-th leaf of that
//     class (Pool.Alts).
//
// A pool leaf therefore always has one kind and one bound, whichever
// alternative reads it: the solver, the mutations and the verdict see a
// fixed vector, as without pools. Which alternative a pool leaf belongs
// to in a run follows from the choice leaf before the pool, a branch of
// the run: the path condition of a path names the alternative, so its
// constraints over pool leaves have one meaning. An alternative's leaves
// are all in the pool, so no input a run reads is lost, and the emitted
// rows decode the pool as the worker does. An alternative's own pooled
// interfaces are pooled in turn, inside its leaves. Pool leaves' paths
// are the interface's path and the leaf's place in the pool:
// "v.pool[3]", "len(v.pool[4])".
//
// The pool of an interface depends on the unfolding where it stands
// (an alternative's recursive parts unfold less deep further down), so
// walks compute it where they meet it, memoized per walk (Pools).

// StepPool is the step of a leaf of a pooled interface's pool: N is its
// place in the pool.
const StepPool = StepMapValue + 1

// A Pool is the pool of one pooled interface value.
type Pool struct {
	// Size is the number of leaves of the pool.
	Size int
	// Alts holds, for each alternative (Outs[k]), the place in the pool
	// of each of its leaves, in its flattening order.
	Alts [][]int
	// slots are the classes of the pool's leaves.
	slots []leafClass
}

// Pools memoizes the pools of one walk of a layout, by shape and
// unfolding.
type Pools map[string]*Pool

// leafClass is what a pool leaf has whichever alternative reads it.
type leafClass struct {
	K      Kind
	IsLen  bool
	Choice bool
	Float  bool
	Cut    bool
	Max    int
	Last   StepKind // StepLen, StepType, StepChoice, StepMessage, StepCall or 0
}

// classOf is the class of leaf l whose path ends with steps.
func classOf(l Leaf, steps ...[]Step) leafClass {
	c := leafClass{K: l.K, IsLen: l.IsLen, Choice: l.Choice, Float: l.Float, Cut: l.Cut, Max: l.Max}
	for k := len(steps) - 1; k >= 0; k-- {
		if n := len(steps[k]); n > 0 {
			switch last := steps[k][n-1].Kind; last {
			case StepLen, StepType, StepChoice, StepMessage, StepCall:
				c.Last = last
			}
			break
		}
	}
	return c
}

// leaf is a pool leaf of class c, without its path.
func (c leafClass) leaf() Leaf {
	return Leaf{K: c.K, IsLen: c.IsLen, Choice: c.Choice, Float: c.Float, Cut: c.Cut, Max: c.Max}
}

// PoolOf is the pool of pooled interface shape i where the unfolding
// stands at u (after u entered i), memoized in memo if it is not nil.
func (l *Layout) PoolOf(i int, u Unfolding, memo Pools) *Pool {
	key := poolKey(i, u)
	if p, ok := memo[key]; ok {
		return p
	}
	s := &l.Shapes[i]
	work := memo[workKey]
	if memo != nil && work == nil {
		work = &Pool{}
		memo[workKey] = work
	}
	if work != nil && work.Size > MaxPoolWork {
		// Too much to lay out: a pool larger than any layout may have.
		return &Pool{Size: MaxLeaves + 1}
	}
	index := map[leafClass]int{} // class → its place in order
	var order []leafClass
	var most []int
	seqs := make([][]leafClass, len(s.Outs))
	for k, o := range s.Outs {
		// An alternative with more than MaxLeaves leaves makes the pool
		// too large anyway: its count is enough.
		f := &flattener{l: l, u: u, classing: true, limit: MaxLeaves + 1, pools: memo}
		f.shape(o)
		seqs[k] = f.classes
		if work != nil {
			work.Size += len(f.classes)
		}
		uses := make([]int, len(order))
		for _, c := range f.classes {
			j, ok := index[c]
			if !ok {
				j = len(order)
				index[c] = j
				order, most, uses = append(order, c), append(most, 0), append(uses, 0)
			}
			uses[j]++
			most[j] = max(most[j], uses[j])
		}
	}
	p := &Pool{Alts: make([][]int, len(s.Outs))}
	start := make([]int, len(order))
	for j, c := range order {
		start[j] = len(p.slots)
		for n := 0; n < most[j]; n++ {
			p.slots = append(p.slots, c)
		}
	}
	p.Size = len(p.slots)
	for k, seq := range seqs {
		rank := make([]int, len(order))
		alt := make([]int, len(seq))
		for n, c := range seq {
			j := index[c]
			alt[n] = start[j] + rank[j]
			rank[j]++
		}
		p.Alts[k] = alt
	}
	if memo != nil {
		memo[key] = p
	}
	return p
}

// MaxPoolWork bounds the leaves the pools of one walk flatten (counted
// under workKey in its Pools): interfaces whose alternatives hold
// interfaces again (mocks whose scripted results are any) have a pool
// per unfolding they are met at, and a layout past the bound is refused
// as too large instead of taking minutes to lay out. A layout that
// SetBounds accepted was flattened within it, and the other walks
// compute no more pools than flattening does.
const MaxPoolWork = 1 << 19

// workKey is the key of Pools under which the leaves flattened so far
// are counted (as the Size of a Pool that is none).
const workKey = "work"

// poolKey is the memo key of shape i's pool where the unfolding stands
// at u.
func poolKey(i int, u Unfolding) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(i))
	keys := make([]int, 0, len(u))
	for k, n := range u {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		b.WriteString(" " + strconv.Itoa(k) + ":" + strconv.Itoa(u[k]))
	}
	return b.String()
}

// PoolTable is where alternative alt (1-based) of pool p, whose first
// leaf is at start of a walk whose leaves are at outer (nil: where they
// are), has its leaves in the input vector: the table a walk reads the
// alternative's leaves through.
func PoolTable(p *Pool, alt, start int, outer []int) []int {
	at := make([]int, len(p.Alts[alt-1]))
	for j, x := range p.Alts[alt-1] {
		at[j] = start + x
		if outer != nil {
			at[j] = outer[at[j]]
		}
	}
	return at
}
