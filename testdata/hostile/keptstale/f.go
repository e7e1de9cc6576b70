// Package keptstale has two PUTs in one file; one changes its signature
// and is left out of the next run by -run, so its kept tests no longer
// build.
package keptstale

// Pos reports whether x is positive.
func Pos(x int) bool { return x > 0 }
