// Package parallel is tested by PUTs that call t.Parallel.
package parallel

// Grade classifies a score.
func Grade(n int) string {
	if n == 5 {
		return "five"
	}
	return "other"
}
