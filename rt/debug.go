package rt

import (
	"fmt"
	"os"
	"strings"
)

// EnvDebugTrace names a file to which a worker appends every run's inputs
// and branch events, with their conditions as text (a debugging aid).
const EnvDebugTrace = "DOWSE_DEBUG_TRACE"

var debugTrace = os.Getenv(EnvDebugTrace)

func debugRun(req *Request, res *Result) {
	f, err := os.OpenFile(debugTrace, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "run %d %s %v -> %s %q\n", req.Seq, req.Target, req.Inputs, res.Status, res.Messages)
	for _, e := range res.Events {
		imp := ""
		if e.Implicit {
			imp = " implicit"
		}
		fmt.Fprintf(f, "  site %d %v%s: %s\n", e.Site, e.Taken, imp, ExprString(res.Nodes, e.Cond))
	}
}

// ExprString renders expression s of arena nodes as text.
func ExprString(nodes []Node, s S) string {
	if s == 0 || int(s) >= len(nodes) {
		return "·"
	}
	n := nodes[s]
	switch n.Op {
	case OpConst:
		return fmt.Sprintf("%d", int64(signExtend(n.K, n.Val)))
	case OpStr:
		return fmt.Sprintf("%q", n.Str)
	case OpInput:
		return fmt.Sprintf("in%d", n.Val)
	case OpFromList:
		var parts []string
		for _, e := range n.List {
			parts = append(parts, ExprString(nodes, e))
		}
		return "str(" + strings.Join(parts, ",") + ")"
	}
	names := map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpQuo: "/", OpRem: "%", OpAnd: "&", OpOr: "|", OpXor: "^",
		OpAndNot: "&^", OpShl: "<<", OpShr: ">>", OpEq: "==", OpNe: "!=", OpLt: "<", OpLe: "<=", OpGt: ">", OpGe: ">=",
		OpLAnd: "&&", OpLOr: "||", OpConcat: "++"}
	if sym, ok := names[n.Op]; ok {
		return "(" + ExprString(nodes, n.A) + " " + sym + " " + ExprString(nodes, n.B) + ")"
	}
	switch n.Op {
	case OpNeg:
		return "-" + ExprString(nodes, n.A)
	case OpCpl:
		return "^" + ExprString(nodes, n.A)
	case OpNot:
		return "!" + ExprString(nodes, n.A)
	case OpConv:
		return n.K.String() + "(" + ExprString(nodes, n.A) + ")"
	case OpLen:
		return "len(" + ExprString(nodes, n.A) + ")"
	case OpIndex:
		return ExprString(nodes, n.A) + "[" + ExprString(nodes, n.B) + "]"
	case OpSlice:
		return ExprString(nodes, n.A) + "[" + ExprString(nodes, n.B) + ":" + ExprString(nodes, n.C) + "]"
	case OpIte:
		return "ite(" + ExprString(nodes, n.A) + "," + ExprString(nodes, n.B) + "," + ExprString(nodes, n.C) + ")"
	}
	return fmt.Sprintf("op%d", n.Op)
}
