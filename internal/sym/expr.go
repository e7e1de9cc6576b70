package sym

import "github.com/dowse-go/dowse/rt"

// Expr is an immutable, interned symbolic term. Build terms with a Context;
// never construct an Expr directly.
type Expr struct {
	op   rt.Op
	k    rt.Kind
	k2   rt.Kind
	args []*Expr // operands: A, B, C in order, or the bytes of OpFromList
	bits uint64  // OpConst: the bits, zero-extended from the kind's width; OpInput: the input index
	str  string  // OpStr: the constant
	id   uint64  // unique in the process, never reused
	hash uint64  // structural hash, independent of creation order
	vars []int   // sorted input indices the term mentions; shared, read-only
	size int     // number of nodes of the term as a tree, saturated
	// float: e or a subterm is a float term (see IsFloat)
	float bool
}

// Op is the operator of e.
func (e *Expr) Op() rt.Op { return e.op }

// Kind is the kind of e's value.
func (e *Expr) Kind() rt.Kind { return e.k }

// K2 is the kind of e's operands where it differs from Kind: the operands
// of comparisons and conversions, shift counts and string indices.
func (e *Expr) K2() rt.Kind { return e.k2 }

// NumArgs is the number of operands of e.
func (e *Expr) NumArgs() int { return len(e.args) }

// Arg is operand i of e (A, B, C in rt.Node's order; the bytes of an
// OpFromList).
func (e *Expr) Arg(i int) *Expr { return e.args[i] }

// Bits is the value of an OpConst: the bits of an integer, zero-extended
// from the kind's width, 0 and 1 for a bool, or a float's IEEE 754 bits.
func (e *Expr) Bits() uint64 { return e.bits }

// Str is the value of an OpStr.
func (e *Expr) Str() string { return e.str }

// Input is the input index of an OpInput.
func (e *Expr) Input() int { return int(e.bits) }

// ID is e's number, unique among all terms of all Contexts of the process
// and never reused, so it can key caches that outlive terms.
func (e *Expr) ID() uint64 { return e.id }

// Hash is a structural hash of e that does not depend on the order in
// which terms were created.
func (e *Expr) Hash() uint64 { return e.hash }

// Vars is the sorted set of input indices e mentions. The slice is shared
// by terms and must not be modified.
func (e *Expr) Vars() []int { return e.vars }

// Size is the number of nodes of e counted as a tree (shared subterms
// counted each time they occur), saturated at MaxInt32.
func (e *Expr) Size() int { return e.size }

// IsConst reports whether e is an integer, bool or float constant.
func (e *Expr) IsConst() bool { return e.op == rt.OpConst }

// IsTrue reports whether e is the constant true.
func (e *Expr) IsTrue() bool { return e.op == rt.OpConst && e.k == rt.KBool && e.bits == 1 }

// IsFalse reports whether e is the constant false.
func (e *Expr) IsFalse() bool { return e.op == rt.OpConst && e.k == rt.KBool && e.bits == 0 }

// Signed is the value of an integer constant interpreted with its kind's
// signedness and sign-extended to 64 bits.
func (e *Expr) Signed() int64 { return signExtend(e.k, e.bits) }
