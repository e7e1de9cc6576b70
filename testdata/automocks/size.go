package automocks

// Capacity says how much a store holds, at most 10: its size if it is a
// Sizer, else -1.
func Capacity(s Store) int {
	if z, ok := s.(Sizer); ok {
		if n := z.Size(); n < 10 {
			return n
		}
		return 10
	}
	return -1
}
