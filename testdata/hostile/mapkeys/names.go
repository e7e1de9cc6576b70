// Package mapkeys looks up maps by keys that are not integers, bools or
// strings, built from its inputs.
package mapkeys

type pair struct{ a, b int }

// Name looks a pair up in a map with struct keys.
func Name(a, b int) string {
	m := map[pair]string{{1, 2}: "one-two", {3, 4}: "three-four"}
	return m[pair{a, b}]
}

// NameArray looks a pair up in a map with array keys.
func NameArray(a, b int) string {
	m := map[[2]int]string{{1, 2}: "one-two", {3, 4}: "three-four"}
	return m[[2]int{a, b}]
}

// NameAny looks a number up in a map with interface keys.
func NameAny(n int) string {
	m := map[any]string{1: "one", 3: "three"}
	return m[n]
}

// NameFloat looks a number up in a map with float keys.
func NameFloat(n int) string {
	m := map[float64]string{1.5: "one and a half", 3: "three"}
	return m[float64(n)]
}

// Found reports whether the map built with the pair as its key holds
// the pair 3, 4.
func Found(a, b int) bool {
	m := map[pair]bool{{a, b}: true}
	return m[pair{3, 4}]
}

// Dropped deletes the pair from a map with struct keys and reports
// whether an entry is left.
func Dropped(a, b int) bool {
	m := map[pair]bool{{3, 4}: true}
	delete(m, pair{a, b})
	return len(m) == 0
}
