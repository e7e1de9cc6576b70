package wrongput

// Pos reports whether a is positive.
func Pos(a int) bool { return a > 0 }
