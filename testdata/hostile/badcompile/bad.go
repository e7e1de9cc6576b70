// Package badcompile does not compile.
package badcompile

// F returns a string as an int.
func F() int { return "x" }
