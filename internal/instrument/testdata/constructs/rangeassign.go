package constructs

// RangeIntoMemory ranges with the iteration values assigned to memory: an
// element indexed by the key being assigned (its index is evaluated
// before the key changes, as in an assignment statement: each value lands
// at the previous key), a struct field
// and a pointee, over a slice, an array and a string.
func RangeIntoMemory(xs []int) (a []int, last struct{ v int }, runes int32) {
	a = make([]int, len(xs)+1)
	i := 0
	for i, a[i] = range xs {
	}
	arr := [3]int{7, 8, 9}
	for _, last.v = range arr {
		if last.v == 8 {
			break
		}
	}
	p := new(rune)
	for _, *p = range "héllo" {
		runes += *p
	}
	return a, last, runes + int32(i)
}
