// Package resources has code that needs more memory or time than the
// bounds of an exploration allow, for some inputs.
package resources

import "time"

// Buffer allocates a large buffer for one size class.
func Buffer(n uint8) int {
	if n == 200 {
		b := make([]byte, 1<<30)
		b[len(b)-1] = 1
		return len(b)
	}
	return 0
}

// Wait sleeps for a while for one input.
func Wait(n uint8) int {
	if n == 100 {
		time.Sleep(time.Minute)
		return 1
	}
	return 0
}
