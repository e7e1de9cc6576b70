package sym

import (
	"encoding/binary"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/dowse-go/dowse/rt"
)

// Context creates and interns terms. Structurally equal terms built by one
// Context are the same pointer. A Context is safe for concurrent use.
//
// The Context holds its terms weakly: a term nobody references any more is
// reclaimed by the garbage collector and forgotten, so one Context can serve
// a whole exploration.
type Context struct {
	mu    sync.Mutex
	table map[key]weak.Pointer[Expr]
	tru   *Expr
	fls   *Expr
}

// lastID numbers terms across all Contexts, so an ID identifies one term
// of one Context for the life of the process.
var lastID atomic.Uint64

// key identifies a term by its structure: operands by their IDs.
type key struct {
	op      rt.Op
	k, k2   rt.Kind
	a, b, c uint64 // IDs of the first three operands, 0 when absent
	bits    uint64
	str     string // OpStr: the constant; OpFromList: the operands' IDs
}

// NewContext returns an empty Context.
func NewContext() *Context {
	c := &Context{table: make(map[key]weak.Pointer[Expr])}
	c.fls = c.intern(rt.OpConst, rt.KBool, rt.KInvalid, nil, 0, "")
	c.tru = c.intern(rt.OpConst, rt.KBool, rt.KInvalid, nil, 1, "")
	return c
}

// Terms is the number of live terms the Context knows.
func (c *Context) Terms() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.table)
}

// intern returns the unique term with the given structure, creating it if
// needed. It does no simplification and no checking, and does not retain
// args.
func (c *Context) intern(op rt.Op, k, k2 rt.Kind, args []*Expr, bits uint64, str string) *Expr {
	kk := key{op: op, k: k, k2: k2, bits: bits, str: str}
	switch {
	case op == rt.OpFromList:
		buf := make([]byte, 0, 8*len(args))
		for _, a := range args {
			buf = binary.LittleEndian.AppendUint64(buf, a.id)
		}
		kk.str = string(buf)
	default:
		ids := [3]*uint64{&kk.a, &kk.b, &kk.c}
		for i, a := range args {
			*ids[i] = a.id
		}
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	if wp, ok := c.table[kk]; ok {
		if e := wp.Value(); e != nil {
			return e
		}
	}
	if len(args) > 0 {
		args = append([]*Expr(nil), args...) // callers may reuse theirs
	}
	e := &Expr{op: op, k: k, k2: k2, args: args, bits: bits, str: str, id: lastID.Add(1)}
	e.hash = structuralHash(e)
	e.vars = mergeVars(e)
	e.size = treeSize(e)
	e.float = isFloatTerm(op, k, args)
	for _, a := range args {
		e.float = e.float || a.float
	}
	wp := weak.Make(e)
	c.table[kk] = wp
	runtime.AddCleanup(e, c.forget, forgotten{kk, wp})
	return e
}

type forgotten struct {
	key key
	wp  weak.Pointer[Expr]
}

// forget drops the table entry of a reclaimed term, unless the entry has
// since been replaced by a new term of the same structure.
func (c *Context) forget(f forgotten) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.table[f.key] == f.wp {
		delete(c.table, f.key)
	}
}

// structuralHash mixes the structure of e with its operands' hashes. The
// mixing is fixed, so the order of commutative operands, which depends on
// it, is the same in every process and for every creation order.
func structuralHash(e *Expr) uint64 {
	h := uint64(e.op)<<16 | uint64(e.k)<<8 | uint64(e.k2)
	h = mix(h, e.bits)
	if e.op == rt.OpStr {
		h = mix(h, strHash(e.str))
	}
	for _, a := range e.args {
		h = mix(h, a.hash)
	}
	return h
}

// strHash is FNV-1a, deterministic across processes.
func strHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + h<<6 + h>>2
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	return h
}

// mergeVars computes the sorted input set of e from its operands', sharing
// an operand's slice when possible.
func mergeVars(e *Expr) []int {
	if e.op == rt.OpInput {
		return []int{int(e.bits)}
	}
	var out []int
	for _, a := range e.args {
		switch {
		case len(a.vars) == 0:
		case out == nil:
			out = a.vars
		case sameSlice(out, a.vars):
		default:
			out = unionSorted(out, a.vars)
		}
	}
	return out
}

func sameSlice(a, b []int) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func unionSorted(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	out = append(out, b[j:]...)
	if len(out) == len(a) {
		return a
	}
	if len(out) == len(b) {
		return b
	}
	return out
}

func treeSize(e *Expr) int {
	n := 1
	for _, a := range e.args {
		n += a.size
		if n >= math.MaxInt32 {
			return math.MaxInt32
		}
	}
	return n
}
