package sigmix

// Mix counts mismatched mirror bits, minus the set bits of the product.
func Mix(a, b uint64) int {
	n := 0
	for i := 0; i < 64; i++ {
		if (a>>i)&1 != (b>>uint(63-i))&1 {
			n++
		}
		if (a*b)>>i&1 == 1 {
			n--
		}
	}
	return n
}

func Easy(a int) int {
	if a > 10 {
		return 1
	}
	return 0
}
