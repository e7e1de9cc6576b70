package explore

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// maxExprLen bounds the rendering of one expression; expressions share
// subterms, so their text can grow much faster than the arena.
const maxExprLen = 600

// renderer renders the expressions of one run's arena as Go-like text,
// naming inputs by their leaves' paths.
type renderer struct {
	nodes  []rt.Node
	leaves []rt.Leaf
	memo   map[rt.S]string
}

func newRenderer(nodes []rt.Node, leaves []rt.Leaf) *renderer {
	return &renderer{nodes: nodes, leaves: leaves, memo: map[rt.S]string{}}
}

// Condition renders a conjunction of literals, one per line joined by
// " && ".
func (r *renderer) Condition(lits []Lit) string {
	if len(lits) == 0 {
		return "true"
	}
	parts := make([]string, len(lits))
	for i, l := range lits {
		parts[i] = r.lit(l)
	}
	return strings.Join(parts, " && ")
}

func (r *renderer) lit(l Lit) string {
	if l.Want {
		return r.conjunct(l.S)
	}
	if n, ok := r.node(l.S); ok {
		if neg, ok := negated[n.Op]; ok {
			return r.operand(n.A) + " " + opText[neg] + " " + r.operand(n.B)
		}
		if n.Op == rt.OpNot {
			return r.conjunct(n.A)
		}
	}
	return "!" + r.operand(l.S)
}

// conjunct renders s as an operand of &&.
func (r *renderer) conjunct(s rt.S) string {
	if n, ok := r.node(s); ok && n.Op == rt.OpLOr {
		return "(" + r.expr(s) + ")"
	}
	return r.expr(s)
}

var negated = map[rt.Op]rt.Op{
	rt.OpEq: rt.OpNe, rt.OpNe: rt.OpEq,
	rt.OpLt: rt.OpGe, rt.OpGe: rt.OpLt,
	rt.OpLe: rt.OpGt, rt.OpGt: rt.OpLe,
}

var opText = map[rt.Op]string{
	rt.OpAdd: "+", rt.OpSub: "-", rt.OpMul: "*", rt.OpQuo: "/", rt.OpRem: "%",
	rt.OpAnd: "&", rt.OpOr: "|", rt.OpXor: "^", rt.OpAndNot: "&^", rt.OpShl: "<<", rt.OpShr: ">>",
	rt.OpEq: "==", rt.OpNe: "!=", rt.OpLt: "<", rt.OpLe: "<=", rt.OpGt: ">", rt.OpGe: ">=",
	rt.OpLAnd: "&&", rt.OpLOr: "||", rt.OpConcat: "+",
}

func (r *renderer) node(s rt.S) (rt.Node, bool) {
	if s == 0 || int(s) >= len(r.nodes) {
		return rt.Node{}, false
	}
	return r.nodes[s], true
}

// operand renders s, in parentheses if it is a binary operation.
func (r *renderer) operand(s rt.S) string {
	text := r.expr(s)
	if n, ok := r.node(s); ok {
		if _, bin := opText[n.Op]; bin {
			return "(" + text + ")"
		}
	}
	return text
}

func (r *renderer) expr(s rt.S) string {
	if text, ok := r.memo[s]; ok {
		return text
	}
	text := r.render(s)
	if len(text) > maxExprLen {
		text = text[:maxExprLen] + "…"
	}
	r.memo[s] = text
	return text
}

func (r *renderer) render(s rt.S) string {
	n, ok := r.node(s)
	if !ok {
		return fmt.Sprintf("?%d", s)
	}
	switch n.Op {
	case rt.OpConst:
		return constText(n.K, n.Val)
	case rt.OpStr:
		return strconv.Quote(n.Str)
	case rt.OpInput:
		if int(n.Val) < len(r.leaves) {
			return r.leaves[n.Val].Path
		}
		return fmt.Sprintf("input%d", n.Val)
	case rt.OpNeg:
		return "-" + r.operand(n.A)
	case rt.OpCpl:
		return "^" + r.operand(n.A)
	case rt.OpNot:
		return "!" + r.operand(n.A)
	case rt.OpConv:
		return n.K.String() + "(" + r.expr(n.A) + ")"
	case rt.OpLen:
		return "len(" + r.expr(n.A) + ")"
	case rt.OpIndex:
		return r.operand(n.A) + "[" + r.expr(n.B) + "]"
	case rt.OpSlice:
		return r.operand(n.A) + "[" + r.expr(n.B) + ":" + r.expr(n.C) + "]"
	case rt.OpFromList:
		elems := make([]string, len(n.List))
		for i, e := range n.List {
			elems[i] = r.expr(e)
		}
		return "string([]byte{" + strings.Join(elems, ", ") + "})"
	case rt.OpIte:
		return "ite(" + r.expr(n.A) + ", " + r.expr(n.B) + ", " + r.expr(n.C) + ")"
	}
	if op, ok := opText[n.Op]; ok {
		return r.operand(n.A) + " " + op + " " + r.operand(n.B)
	}
	return fmt.Sprintf("op%d(%s, %s)", n.Op, r.expr(n.A), r.expr(n.B))
}

// constText renders the bits v of kind k as a Go constant.
func constText(k rt.Kind, v uint64) string {
	switch {
	case k == rt.KBool:
		return strconv.FormatBool(v != 0)
	case k.Signed():
		return strconv.FormatInt(signExtend(k, v), 10)
	}
	return strconv.FormatUint(v, 10)
}

// signExtend interprets the low bits of v as a signed integer of kind k.
func signExtend(k rt.Kind, v uint64) int64 {
	bits := uint(k.Bits())
	if bits == 0 || bits >= 64 {
		return int64(v)
	}
	shift := 64 - bits
	return int64(v<<shift) >> shift
}

// valueText renders one input value of leaf l.
func valueText(l rt.Leaf, v rt.Value) string {
	if l.K == rt.KString {
		return strconv.Quote(v.Str)
	}
	return constText(l.K, v.Bits)
}

// InputText renders an input vector leaf by leaf, leaving out the
// elements of slices beyond their length: "len(xs)=1, xs[0]=3, x=0".
func InputText(leaves []rt.Leaf, in []rt.Value) string {
	if len(in) != len(leaves) {
		return fmt.Sprintf("<%d values for %d leaves>", len(in), len(leaves))
	}
	var parts []string
	// hidden holds the path prefixes of slice elements past the length.
	var hidden []string
	for i, l := range leaves {
		skip := false
		for _, h := range hidden {
			if strings.HasPrefix(l.Path, h) {
				skip = true
				break
			}
		}
		if skip {
			continue
		}
		parts = append(parts, l.Path+"="+valueText(l, in[i]))
		if l.IsLen && strings.HasPrefix(l.Path, "len(") && strings.HasSuffix(l.Path, ")") {
			base := l.Path[len("len(") : len(l.Path)-1]
			for j := int(in[i].Bits); j < l.Max; j++ {
				hidden = append(hidden, fmt.Sprintf("%s[%d]", base, j))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// NameLeaves renames the parameters in the leaves' paths: the runtime
// calls them p0, p1, ...; names[i] replaces p<i> where it is not empty or
// "_".
func NameLeaves(leaves []rt.Leaf, names []string) []rt.Leaf {
	out := make([]rt.Leaf, len(leaves))
	for i, l := range leaves {
		out[i] = l
		out[i].Path = renameRoot(l.Path, names)
	}
	return out
}

func renameRoot(path string, names []string) string {
	pre := 0
	for strings.HasPrefix(path[pre:], "len(") {
		pre += len("len(")
	}
	rest := path[pre:]
	if !strings.HasPrefix(rest, "p") {
		return path
	}
	end := 1
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	i, err := strconv.Atoi(rest[1:end])
	if err != nil || i >= len(names) || names[i] == "" || names[i] == "_" {
		return path
	}
	return path[:pre] + names[i] + rest[end:]
}
