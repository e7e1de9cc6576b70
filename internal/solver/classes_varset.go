package solver

import "math/bits"

// A varSet is a set of a class program's vars, numbered below
// maxClassParts: the vars a term reads, the vars assigned.
type varSet [maxClassParts / 64]uint64

// varOnly is the set of var v alone.
func varOnly(v int) varSet {
	var s varSet
	s[v/64] = 1 << (v % 64)
	return s
}

// has reports whether v is in s.
func (s varSet) has(v int) bool { return s[v/64]>>(v%64)&1 == 1 }

// with is s and v.
func (s varSet) with(v int) varSet {
	s[v/64] |= 1 << (v % 64)
	return s
}

// without is s less v.
func (s varSet) without(v int) varSet {
	s[v/64] &^= 1 << (v % 64)
	return s
}

// The operations below are written out for the two words of a varSet;
// this fails to compile if maxClassParts changes.
const _ = uint(maxClassParts-128) + uint(128-maxClassParts)

// or is the union of s and t.
func (s varSet) or(t varSet) varSet { return varSet{s[0] | t[0], s[1] | t[1]} }

// and is the intersection of s and t.
func (s varSet) and(t varSet) varSet { return varSet{s[0] & t[0], s[1] & t[1]} }

// within reports whether every var of s is in t.
func (s varSet) within(t varSet) bool { return s[0]&^t[0]|s[1]&^t[1] == 0 }

// meets reports whether s and t have a var in common.
func (s varSet) meets(t varSet) bool { return s[0]&t[0]|s[1]&t[1] != 0 }

// empty reports whether s has no var.
func (s varSet) empty() bool { return s[0]|s[1] == 0 }

// count is the number of vars in s.
func (s varSet) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// first is the smallest var in s, or -1.
func (s varSet) first() int {
	for w, x := range s {
		if x != 0 {
			return w*64 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

// last is the largest var in s, or -1.
func (s varSet) last() int {
	for w := len(s) - 1; w >= 0; w-- {
		if x := s[w]; x != 0 {
			return w*64 + 63 - bits.LeadingZeros64(x)
		}
	}
	return -1
}
