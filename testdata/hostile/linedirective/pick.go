// Package linedirective holds code whose positions a //line directive
// maps to another file, as parser generators (goyacc) write it.
package linedirective

//line grammar.y:10
func Pick(n int) int {
	if n > 3 {
		return 1
	}
	return 0
}
