package p

import . "slices"

// HasThree reports whether s holds 3: slices.Contains (generic) has a model.
func HasThree(s []int) bool {
	return Contains(s, 3)
}
