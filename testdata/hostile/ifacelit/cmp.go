// Package ifacelit compares values of sized types held in interfaces:
// a generated row must hold an int8 where the exploration passed one,
// not the untyped constant's int.
package ifacelit

// Compare8 compares a and b, which must hold int8 values.
func Compare8(a, b interface{}) int {
	x, y := a.(int8), b.(int8)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// CompareU compares a and b, which must hold uint values.
func CompareU(a, b interface{}) int {
	x, y := a.(uint), b.(uint)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
