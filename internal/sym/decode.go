package sym

import (
	"fmt"

	"github.com/dowse-go/dowse/rt"
)

// Decode turns a run's expression arena into terms: the result has one
// term per arena index (nil at index 0), so the term of a shadow s is
// Decode(...)[s]. Operands must refer to earlier nodes and have the kinds
// rt.Op documents; a malformed arena is reported with the first bad
// node's index.
func (c *Context) Decode(nodes []rt.Node) ([]*Expr, error) {
	out := make([]*Expr, len(nodes))
	var scratch [3]*Expr
	for i := 1; i < len(nodes); i++ {
		n := &nodes[i]
		var refs []rt.S
		switch arity(n.Op) {
		case 0:
		case 1:
			refs = []rt.S{n.A}
		case 2:
			refs = []rt.S{n.A, n.B}
		case 3:
			refs = []rt.S{n.A, n.B, n.C}
		default:
			refs = n.List
		}
		args := scratch[:0]
		if len(refs) > len(scratch) {
			args = make([]*Expr, 0, len(refs))
		}
		for _, s := range refs {
			if s == 0 || int(s) >= i {
				return nil, fmt.Errorf("sym: decode node %d (%s): operand %d is not an earlier node", i, opName(n.Op), s)
			}
			args = append(args, out[s])
		}
		e, err := c.Make(n.Op, n.K, n.K2, args, n.Val, n.Str)
		if err != nil {
			return nil, fmt.Errorf("decode node %d: %w", i, err)
		}
		out[i] = e
	}
	return out, nil
}
