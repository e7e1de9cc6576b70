// Package sym represents the symbolic expressions of the coordinator: it
// turns the expression arenas recorded by instrumented runs (see rt.Node)
// into hash-consed, simplified, immutable terms that can be compared by
// pointer, evaluated on concrete inputs and printed as Go-like text.
//
// Terms are created through a Context. Two terms built by the same Context
// are structurally equal exactly when they are the same pointer, across all
// the runs decoded by that Context, so terms can key maps and caches
// directly. Constructors simplify as they build: constants are folded with
// Go's exact semantics (wrap-around per width and signedness, truncated
// division, saturating shifts, truncating and extending conversions), and
// identities such as x+0, x*1, !!x and !(a < b) == (a >= b) are applied.
//
// The semantics of every operator is the one documented on rt.Op.
package sym
