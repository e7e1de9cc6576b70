// Package p uses a vendored dependency (example.com/dep exists nowhere
// else: the module builds offline only from its vendor directory).
package p

import (
	"os"

	"example.com/dep"
)

// Grade classifies n after clamping it.
func Grade(n int) string {
	c := dep.Clamp(n)
	if c == dep.Limit {
		return "top"
	}
	if c > 5 {
		return "high"
	}
	return "low"
}

// Level reads the environment: the call is isolated.
func Level() int {
	if os.Getenv("LEVEL") == "high" {
		return dep.Clamp(100)
	}
	return 0
}
