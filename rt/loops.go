package rt

// The zero values below declare the iteration variables of a range loop
// of a file before Go 1.22 once, ahead of the loop, as such a loop does:
// instrumented code cannot always name their types.

// ElemZero returns the zero value of s's element type.
func ElemZero[S ~[]E, E any](s S) (z E) { return z }

// PointeeZero returns the zero value of the type p points to.
func PointeeZero[P ~*T, T any](p P) (z T) { return z }

// MapZero returns the zero values of m's key and element types.
func MapZero[M ~map[K]V, K comparable, V any](m M) (k K, v V) { return k, v }

// RecvZero returns the zero value of c's element type.
func RecvZero[E any](c <-chan E) (z E) { return z }
