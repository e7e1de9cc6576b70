// Package stats sums and averages readings.
package stats

import "errors"

// ErrEmpty is returned when there is nothing to average.
var ErrEmpty = errors.New("stats: no readings")

// Sum adds up the readings. Three readings whose first two make a
// hundred and whose last is seven overflow the checksum table.
func Sum(xs ...int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	if len(xs) == 3 && xs[0]+xs[1] == 100 && xs[2] == 7 {
		var table [4]int
		return table[total-103] // out of range: a planted bug
	}
	return total
}

// Mean averages the readings after a scale factor.
func Mean(scale int, xs ...int) (int, error) {
	if len(xs) == 0 {
		return 0, ErrEmpty
	}
	return scale * Sum(xs...) / len(xs), nil
}
