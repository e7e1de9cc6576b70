package rt

import "strconv"

// S is the shadow of a value: a reference to the symbolic expression that
// the value equals on the current run, as an index into the run's
// expression arena. The zero S means "no symbolic expression": the value is
// concrete.
type S uint32

// Kind is the sort of a symbolic expression: a Go integer kind (with its
// width and signedness), bool, string, or a floating-point kind. Strings
// and byte sequences are sequences of bytes; a float's value is its IEEE
// 754 bits (binary32 in the low 32 bits for KFloat32).
type Kind uint8

// The kinds. The platform-sized kinds Int, Uint and Uintptr are mapped to
// their fixed-size equivalents when expressions are built, so expressions
// only ever carry sized kinds.
const (
	KInvalid Kind = iota
	KBool
	KInt8
	KInt16
	KInt32
	KInt64
	KUint8
	KUint16
	KUint32
	KUint64
	KString
	KFloat32
	KFloat64
)

// KInt, KUint and KUintptr are the sized kinds of Go's int, uint and uintptr.
var (
	KInt     = KInt64
	KUint    = KUint64
	KUintptr = KUint64
)

func init() {
	if strconv.IntSize == 32 {
		KInt, KUint, KUintptr = KInt32, KUint32, KUint32
	}
}

// Bits is the width in bits of an integer kind, 1 for bool, 0 otherwise.
func (k Kind) Bits() int {
	switch k {
	case KBool:
		return 1
	case KInt8, KUint8:
		return 8
	case KInt16, KUint16:
		return 16
	case KInt32, KUint32:
		return 32
	case KInt64, KUint64:
		return 64
	}
	return 0
}

// Signed reports whether k is a signed integer kind.
func (k Kind) Signed() bool { return k >= KInt8 && k <= KInt64 }

// Integer reports whether k is an integer kind.
func (k Kind) Integer() bool { return k >= KInt8 && k <= KUint64 }

// Float reports whether k is a floating-point kind.
func (k Kind) Float() bool { return k == KFloat32 || k == KFloat64 }

// FloatBits is the width of a floating-point kind's IEEE 754 format (32
// or 64), 0 for the other kinds.
func (k Kind) FloatBits() int {
	switch k {
	case KFloat32:
		return 32
	case KFloat64:
		return 64
	}
	return 0
}

func (k Kind) String() string {
	switch k {
	case KBool:
		return "bool"
	case KInt8:
		return "int8"
	case KInt16:
		return "int16"
	case KInt32:
		return "int32"
	case KInt64:
		return "int64"
	case KUint8:
		return "uint8"
	case KUint16:
		return "uint16"
	case KUint32:
		return "uint32"
	case KUint64:
		return "uint64"
	case KString:
		return "string"
	case KFloat32:
		return "float32"
	case KFloat64:
		return "float64"
	}
	return "invalid"
}

// Op is the operator of an expression node.
type Op uint8

// The operators. Unless said otherwise, operands A and B have the node's
// kind K and the semantics are exactly Go's for that kind (wrap-around,
// truncated division, shifts that saturate; for the float kinds, IEEE 754
// arithmetic rounding to nearest even, as Go computes it).
const (
	OpInvalid Op = iota

	// Leaves.
	OpConst // integer or bool constant: Val holds the bits (bool: 0 or 1), zero-extended
	OpStr   // string constant: Str
	OpInput // input variable number Val of kind K (integer, bool or string)

	// Integer arithmetic, result kind K. OpAdd, OpSub, OpMul, OpQuo and
	// OpNeg also apply to the float kinds (OpQuo then needs no branch:
	// x/0 is an infinity or NaN).
	OpAdd
	OpSub
	OpMul
	OpQuo // Go's /: truncated; the caller has recorded B != 0 as a branch
	OpRem // Go's %: sign of the dividend
	OpAnd
	OpOr
	OpXor
	OpAndNot
	OpShl // A << B; B has kind K2 (any integer kind, treated as unsigned: the caller recorded B >= 0 for signed B)
	OpShr // A >> B; arithmetic for signed K, logical for unsigned
	OpNeg // -A
	OpCpl // ^A

	// Comparisons of two operands of kind K2; result kind bool.
	// For K2 == KString the order is byte-wise lexicographic; for float
	// K2 IEEE 754's: every comparison with a NaN is false but !=, and
	// -0 == +0.
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe

	// Boolean connectives, kind bool.
	OpNot  // !A
	OpLAnd // A && B (both evaluated: used for shadows only)
	OpLOr  // A || B

	// OpConv converts A of kind K2 to kind K (integer to integer: truncation,
	// sign or zero extension as Go does; integer to float and float to
	// float: rounding to nearest even; float to integer: truncation
	// toward zero, for values in K's range only — the caller recorded
	// that range as a branch, Go leaves the rest to the implementation).
	OpConv

	// Strings (byte sequences).
	OpLen      // len(A), A a string; kind K is KInt
	OpIndex    // A[B], A a string, B of kind K2; kind KUint8. The caller recorded 0 <= B < len(A).
	OpSlice    // A[B:C], A a string, B and C of kind KInt; kind KString. Caller recorded 0 <= B <= C <= len(A).
	OpConcat   // A + B, strings
	OpFromList // the string of the bytes List (each of kind KUint8)
	OpIte      // if A then B else C, B and C of kind K

	// OpFromBits is the float of kind K whose IEEE 754 bits are A, of
	// the unsigned kind K2 of the same width (math.Float64frombits): the
	// shadow of a float input, whose leaf holds its bits.
	OpFromBits
)

// Node is one expression in a run's arena. Operands refer to earlier nodes
// of the same arena.
type Node struct {
	Op   Op
	K    Kind   // kind of the result
	K2   Kind   // kind of the operands where it differs from K (comparisons, conversions, shift counts, index)
	A    S      // first operand
	B    S      // second operand
	C    S      // third operand
	Val  uint64 // OpConst bits; OpInput index
	Str  string // OpStr
	List []S    // OpFromList
}
