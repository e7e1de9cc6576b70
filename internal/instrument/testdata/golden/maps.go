package golden

// Lookup reads a map and branches on whether the key is there.
func Lookup(m map[string]int, k string) int {
	if v, ok := m[k]; ok {
		return v
	}
	return -1
}
