// Package sharedstate keeps a registry that one function fills and
// another reads: alone, every call of Lookup passes; after Register's
// generated tests, it panics.
package sharedstate

var registry = map[string]int{}

// Register records v under name.
func Register(name string, v int) {
	registry[name] = v
}

// Lookup classifies name by its length; it panics once anything was
// registered.
func Lookup(name string) int {
	if len(registry) > 0 {
		var p *int
		return *p
	}
	if len(name) > 3 {
		return 2
	}
	if len(name) > 0 {
		return 1
	}
	return 0
}

// Twice doubles x.
func Twice(x int) int {
	if x > 100 {
		return x
	}
	return 2 * x
}
