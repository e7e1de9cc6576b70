package sym

import (
	"cmp"

	"github.com/dowse-go/dowse/rt"
)

// This file is the test oracle: Go's own operators on Go's own types,
// independent of the bit manipulation in arith.go.

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// goValue is the Go value of bits of kind k.
func goValue(k rt.Kind, v rt.Value) any {
	switch k {
	case rt.KBool:
		return v.Bits&1 == 1
	case rt.KInt8:
		return int8(v.Bits)
	case rt.KInt16:
		return int16(v.Bits)
	case rt.KInt32:
		return int32(v.Bits)
	case rt.KInt64:
		return int64(v.Bits)
	case rt.KUint8:
		return uint8(v.Bits)
	case rt.KUint16:
		return uint16(v.Bits)
	case rt.KUint32:
		return uint32(v.Bits)
	case rt.KUint64:
		return v.Bits
	case rt.KString:
		return v.Str
	}
	panic("goValue: bad kind")
}

// rtValue is the rt encoding of a Go value: integers zero-extended from
// their width.
func rtValue(x any) rt.Value {
	switch x := x.(type) {
	case bool:
		if x {
			return rt.Value{Bits: 1}
		}
		return rt.Value{}
	case int8:
		return rt.Value{Bits: uint64(uint8(x))}
	case int16:
		return rt.Value{Bits: uint64(uint16(x))}
	case int32:
		return rt.Value{Bits: uint64(uint32(x))}
	case int64:
		return rt.Value{Bits: uint64(x)}
	case uint8:
		return rt.Value{Bits: uint64(x)}
	case uint16:
		return rt.Value{Bits: uint64(x)}
	case uint32:
		return rt.Value{Bits: uint64(x)}
	case uint64:
		return rt.Value{Bits: x}
	case string:
		return rt.Value{Str: x}
	}
	panic("rtValue: bad type")
}

// goArith applies a binary integer operator; ok is false where Go panics.
func goArith[T integer](op rt.Op, a, b T) (r T, ok bool) {
	switch op {
	case rt.OpAdd:
		return a + b, true
	case rt.OpSub:
		return a - b, true
	case rt.OpMul:
		return a * b, true
	case rt.OpQuo:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case rt.OpRem:
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case rt.OpAnd:
		return a & b, true
	case rt.OpOr:
		return a | b, true
	case rt.OpXor:
		return a ^ b, true
	case rt.OpAndNot:
		return a &^ b, true
	}
	panic("goArith: bad operator")
}

func goShift[T integer](op rt.Op, a T, n uint64) T {
	if op == rt.OpShl {
		return a << n
	}
	return a >> n
}

func goUnary[T integer](op rt.Op, a T) T {
	if op == rt.OpNeg {
		return -a
	}
	return ^a
}

func goCompare[T cmp.Ordered](op rt.Op, a, b T) bool {
	switch op {
	case rt.OpEq:
		return a == b
	case rt.OpNe:
		return a != b
	case rt.OpLt:
		return a < b
	case rt.OpLe:
		return a <= b
	case rt.OpGt:
		return a > b
	case rt.OpGe:
		return a >= b
	}
	panic("goCompare: bad operator")
}

func goConvert[T integer](x any) T {
	switch x := x.(type) {
	case int8:
		return T(x)
	case int16:
		return T(x)
	case int32:
		return T(x)
	case int64:
		return T(x)
	case uint8:
		return T(x)
	case uint16:
		return T(x)
	case uint32:
		return T(x)
	case uint64:
		return T(x)
	}
	panic("goConvert: bad type")
}

// goCount is a shift count or index as Go sees it: ok is false for a
// negative signed value (Go panics on negative shift counts and indices).
func goCount(x any) (uint64, bool) {
	switch x := x.(type) {
	case int8:
		return uint64(x), x >= 0
	case int16:
		return uint64(x), x >= 0
	case int32:
		return uint64(x), x >= 0
	case int64:
		return uint64(x), x >= 0
	}
	return rtValue(x).Bits, true
}

// goBinary dispatches goArith or goShift on the dynamic type of a.
func goBinary(op rt.Op, a, b any) (any, bool) {
	if op == rt.OpShl || op == rt.OpShr {
		n, ok := goCount(b)
		if !ok {
			return nil, false
		}
		switch a := a.(type) {
		case int8:
			return goShift(op, a, n), true
		case int16:
			return goShift(op, a, n), true
		case int32:
			return goShift(op, a, n), true
		case int64:
			return goShift(op, a, n), true
		case uint8:
			return goShift(op, a, n), true
		case uint16:
			return goShift(op, a, n), true
		case uint32:
			return goShift(op, a, n), true
		case uint64:
			return goShift(op, a, n), true
		}
	}
	switch a := a.(type) {
	case int8:
		return wrap(goArith(op, a, b.(int8)))
	case int16:
		return wrap(goArith(op, a, b.(int16)))
	case int32:
		return wrap(goArith(op, a, b.(int32)))
	case int64:
		return wrap(goArith(op, a, b.(int64)))
	case uint8:
		return wrap(goArith(op, a, b.(uint8)))
	case uint16:
		return wrap(goArith(op, a, b.(uint16)))
	case uint32:
		return wrap(goArith(op, a, b.(uint32)))
	case uint64:
		return wrap(goArith(op, a, b.(uint64)))
	}
	panic("goBinary: bad type")
}

func wrap[T any](v T, ok bool) (any, bool) { return v, ok }

func goUnaryAny(op rt.Op, a any) any {
	switch a := a.(type) {
	case bool:
		return !a
	case int8:
		return goUnary(op, a)
	case int16:
		return goUnary(op, a)
	case int32:
		return goUnary(op, a)
	case int64:
		return goUnary(op, a)
	case uint8:
		return goUnary(op, a)
	case uint16:
		return goUnary(op, a)
	case uint32:
		return goUnary(op, a)
	case uint64:
		return goUnary(op, a)
	}
	panic("goUnaryAny: bad type")
}

func goCompareAny(op rt.Op, a, b any) bool {
	switch a := a.(type) {
	case bool:
		if op == rt.OpEq {
			return a == b.(bool)
		}
		return a != b.(bool)
	case int8:
		return goCompare(op, a, b.(int8))
	case int16:
		return goCompare(op, a, b.(int16))
	case int32:
		return goCompare(op, a, b.(int32))
	case int64:
		return goCompare(op, a, b.(int64))
	case uint8:
		return goCompare(op, a, b.(uint8))
	case uint16:
		return goCompare(op, a, b.(uint16))
	case uint32:
		return goCompare(op, a, b.(uint32))
	case uint64:
		return goCompare(op, a, b.(uint64))
	case string:
		return goCompare(op, a, b.(string))
	}
	panic("goCompareAny: bad type")
}

func goConvertAny(k rt.Kind, x any) any {
	switch k {
	case rt.KInt8:
		return goConvert[int8](x)
	case rt.KInt16:
		return goConvert[int16](x)
	case rt.KInt32:
		return goConvert[int32](x)
	case rt.KInt64:
		return goConvert[int64](x)
	case rt.KUint8:
		return goConvert[uint8](x)
	case rt.KUint16:
		return goConvert[uint16](x)
	case rt.KUint32:
		return goConvert[uint32](x)
	case rt.KUint64:
		return goConvert[uint64](x)
	}
	panic("goConvertAny: bad kind")
}
