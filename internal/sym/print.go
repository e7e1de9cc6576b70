package sym

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dowse-go/dowse/rt"
)

// maxPrint bounds the length of printed terms: a term with much sharing
// can be exponentially larger as text than as a DAG.
const maxPrint = 1 << 16

// String renders e as Go-like text, naming input i "in[i]".
func (e *Expr) String() string { return Format(e, nil) }

// Format renders e as Go-like text, naming each input by its leaf's path
// (e.g. "a[0] < a[3] && len(s) == 6"); inputs beyond leaves are named
// "in[i]". Conditional terms print as ite(cond, then, else).
func Format(e *Expr, leaves []rt.Leaf) string {
	p := printer{leaves: leaves}
	p.expr(e, 0)
	if p.Len() > maxPrint {
		return p.String()[:maxPrint] + "…"
	}
	return p.String()
}

// FormatAll renders a conjunction of conditions, joined by " && ".
func FormatAll(conds []*Expr, leaves []rt.Leaf) string {
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = Format(c, leaves)
		if c.Op() == rt.OpLOr {
			parts[i] = "(" + parts[i] + ")" // a conjunct
		}
	}
	return strings.Join(parts, " && ")
}

type printer struct {
	strings.Builder
	leaves []rt.Leaf
}

// Go's binary operator precedences.
func precedence(op rt.Op) int {
	switch op {
	case rt.OpMul, rt.OpQuo, rt.OpRem, rt.OpShl, rt.OpShr, rt.OpAnd, rt.OpAndNot:
		return 5
	case rt.OpAdd, rt.OpSub, rt.OpOr, rt.OpXor, rt.OpConcat:
		return 4
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		return 3
	case rt.OpLAnd:
		return 2
	case rt.OpLOr:
		return 1
	case rt.OpNeg, rt.OpCpl, rt.OpNot:
		return 6
	}
	return 7 // operands, calls, index expressions
}

var opSymbols = map[rt.Op]string{
	rt.OpAdd: "+", rt.OpSub: "-", rt.OpMul: "*", rt.OpQuo: "/", rt.OpRem: "%",
	rt.OpAnd: "&", rt.OpOr: "|", rt.OpXor: "^", rt.OpAndNot: "&^", rt.OpShl: "<<", rt.OpShr: ">>",
	rt.OpNeg: "-", rt.OpCpl: "^", rt.OpNot: "!",
	rt.OpEq: "==", rt.OpNe: "!=", rt.OpLt: "<", rt.OpLe: "<=", rt.OpGt: ">", rt.OpGe: ">=",
	rt.OpLAnd: "&&", rt.OpLOr: "||", rt.OpConcat: "+",
}

var opNames = [...]string{
	rt.OpInvalid: "invalid", rt.OpConst: "const", rt.OpStr: "str", rt.OpInput: "input",
	rt.OpAdd: "add", rt.OpSub: "sub", rt.OpMul: "mul", rt.OpQuo: "quo", rt.OpRem: "rem",
	rt.OpAnd: "and", rt.OpOr: "or", rt.OpXor: "xor", rt.OpAndNot: "andnot", rt.OpShl: "shl", rt.OpShr: "shr",
	rt.OpNeg: "neg", rt.OpCpl: "cpl", rt.OpEq: "eq", rt.OpNe: "ne", rt.OpLt: "lt", rt.OpLe: "le",
	rt.OpGt: "gt", rt.OpGe: "ge", rt.OpNot: "not", rt.OpLAnd: "land", rt.OpLOr: "lor", rt.OpConv: "conv",
	rt.OpLen: "len", rt.OpIndex: "index", rt.OpSlice: "slice", rt.OpConcat: "concat",
	rt.OpFromList: "fromlist", rt.OpIte: "ite", rt.OpFromBits: "frombits",
}

// opName is a short lower-case name of op for messages.
func opName(op rt.Op) string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("op%d", op)
}

// expr prints e, parenthesized if its precedence is below min.
func (p *printer) expr(e *Expr, min int) {
	if p.Len() > maxPrint {
		return
	}
	prec := precedence(e.op)
	if prec < min {
		p.WriteByte('(')
		defer p.WriteByte(')')
	}
	if i, ok := p.choice(e); ok {
		// A choice leaf reads as a comparison: "p != nil".
		name := p.name(i)
		if e.op == rt.OpNot {
			name = strings.TrimSuffix(name, " != nil") + " == nil"
		}
		if min > precedence(rt.OpNe) {
			name = "(" + name + ")"
		}
		p.WriteString(name)
		return
	}
	switch e.op {
	case rt.OpConst:
		p.WriteString(constText(e))
	case rt.OpStr:
		p.WriteString(strconv.Quote(e.str))
	case rt.OpInput:
		p.WriteString(p.name(int(e.bits)))
	case rt.OpNeg, rt.OpCpl, rt.OpNot:
		p.WriteString(opSymbols[e.op])
		p.expr(e.args[0], prec)
	case rt.OpEq, rt.OpNe, rt.OpLt, rt.OpLe, rt.OpGt, rt.OpGe:
		p.comparison(e, prec)
	case rt.OpFromBits:
		p.WriteString("math.Float" + strconv.Itoa(e.k.FloatBits()) + "frombits(")
		p.expr(e.args[0], 0)
		p.WriteByte(')')
	case rt.OpConv:
		p.WriteString(e.k.String())
		p.WriteByte('(')
		p.expr(e.args[0], 0)
		p.WriteByte(')')
	case rt.OpLen:
		p.WriteString("len(")
		p.expr(e.args[0], 0)
		p.WriteByte(')')
	case rt.OpIndex:
		p.expr(e.args[0], 7)
		p.WriteByte('[')
		p.expr(e.args[1], 0)
		p.WriteByte(']')
	case rt.OpSlice:
		s, lo, hi := e.args[0], e.args[1], e.args[2]
		p.expr(s, 7)
		p.WriteByte('[')
		if !isConstBits(lo, 0) {
			p.expr(lo, 0)
		}
		p.WriteByte(':')
		if !(hi.op == rt.OpLen && hi.args[0] == s) {
			p.expr(hi, 0)
		}
		p.WriteByte(']')
	case rt.OpFromList:
		p.WriteString("string([]byte{")
		for i, b := range e.args {
			if i > 0 {
				p.WriteString(", ")
			}
			p.expr(b, 0)
		}
		p.WriteString("})")
	case rt.OpIte:
		p.WriteString("ite(")
		for i, a := range e.args {
			if i > 0 {
				p.WriteString(", ")
			}
			p.expr(a, 0)
		}
		p.WriteByte(')')
	default:
		if sym, ok := opSymbols[e.op]; ok && len(e.args) == 2 {
			p.expr(e.args[0], prec)
			p.WriteString(" " + sym + " ")
			p.expr(e.args[1], prec+1) // Go's binary operators associate to the left
			return
		}
		fmt.Fprintf(p, "%s(?)", opName(e.op))
	}
}

// comparison prints a comparison, showing a byte constant compared with a
// string's byte as a character literal.
func (p *printer) comparison(e *Expr, prec int) {
	a, b := e.args[0], e.args[1]
	p.expr(a, prec)
	p.WriteString(" " + opSymbols[e.op] + " ")
	if a.op == rt.OpIndex && b.op == rt.OpConst && b.bits >= ' ' && b.bits <= '~' {
		p.WriteString(strconv.QuoteRune(rune(b.bits)))
		return
	}
	p.expr(b, prec+1)
}

// choice reports whether e is a choice leaf of input construction (a
// pointer or error non-nil), or its negation, and which input it is.
func (p *printer) choice(e *Expr) (int, bool) {
	if e.op == rt.OpNot {
		e = e.args[0]
	}
	if e.op != rt.OpInput || int(e.bits) >= len(p.leaves) {
		return 0, false
	}
	i := int(e.bits)
	return i, p.leaves[i].Choice && strings.HasSuffix(p.leaves[i].Path, " != nil")
}

func (p *printer) name(i int) string {
	if i < len(p.leaves) && p.leaves[i].Path != "" {
		return p.leaves[i].Path
	}
	return fmt.Sprintf("in[%d]", i)
}

// constText prints an integer in decimal, or in hexadecimal when that is
// likely how it was written (large values that are not round decimals).
func constText(e *Expr) string {
	if e.k == rt.KBool {
		return strconv.FormatBool(e.bits == 1)
	}
	if e.k.Float() {
		return floatText(e.k, e.bits)
	}
	neg, mag := false, e.bits
	if v := e.Signed(); e.k.Signed() && v < 0 {
		neg, mag = true, uint64(-v)
	}
	s := strconv.FormatUint(mag, 10)
	if mag >= 1<<16 && mag%1000 != 0 {
		s = "0x" + strconv.FormatUint(mag, 16)
	}
	if neg {
		s = "-" + s
	}
	return s
}
