// Package meter reads, classifies and converts sensor values.
package meter

import "errors"

// ErrRange reports a value that does not fit the result.
var ErrRange = errors.New("meter: value out of range")

// Clamp limits v to [lo, hi].
func Clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// Micros converts seconds to whole microseconds, refusing what an int64
// cannot hold.
func Micros(sec float64) (int64, error) {
	us := sec * 1e6
	if us != us {
		return 0, ErrRange // NaN
	}
	if us >= 9.2e18 || us <= -9.2e18 {
		return 0, ErrRange
	}
	return int64(us), nil
}

// Level classifies a reading in [0, 1].
func Level(x float32) string {
	switch {
	case x < 0:
		return "negative"
	case x > 0.5 && x*3 < 2:
		return "mid"
	case x > 0.5:
		return "high"
	}
	return "low"
}

// Ratio is part/whole, and 0 for an empty whole.
func Ratio(part, whole float64) float64 {
	if whole == 0 {
		return 0
	}
	return part / whole
}
