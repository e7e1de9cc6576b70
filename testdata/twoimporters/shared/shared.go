// Package shared is imported by two explored packages; with
// -instrument-module it goes instrumented into both worker binaries.
package shared

// Grade has three outcomes.
func Grade(n int) int {
	if n > 90 {
		return 2
	}
	if n > 50 {
		return 1
	}
	return 0
}
