// Package magic holds branches guarded by magic values, which random
// inputs almost never hit and a solver finds at once. dowse's tests and the
// fuzzer comparison (bench/fuzzcmp) run on it.
package magic

// Seed reports whether x is the magic seed.
func Seed(x uint32) bool {
	return x == 0x5eed_f00d
}

// Overflows reports whether a+b wraps around.
func Overflows(a, b uint64) bool {
	return a+b < a
}

// Word reports whether s is the magic word.
func Word(s string) bool {
	if len(s) != 6 {
		return false
	}
	return s == "dowse!"
}

// Header parses a length-prefixed record: two bytes of big-endian length,
// the tag "DW", then exactly that many payload bytes. It returns the
// payload length or a negative error code.
func Header(b []byte) int {
	if len(b) < 4 {
		return -1
	}
	if b[2] != 'D' || b[3] != 'W' {
		return -2
	}
	n := int(b[0])<<8 | int(b[1])
	if len(b)-4 != n {
		return -3
	}
	return n
}

// Checksum reports whether the third byte is the 8-bit sum of the first
// two and the first is the marker 0x42.
func Checksum(b0, b1, b2 byte) bool {
	if b0 != 0x42 {
		return false
	}
	return b0+b1 == b2
}
