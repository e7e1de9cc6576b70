package p

import "strconv"

func Parse(s string, n int) int {
	if len(s) > 20 && s[20] == '!' {
		return 1
	}
	if strconv.Itoa(n) == s {
		return 2
	}
	if n*n == 1369 {
		return 3
	}
	if n > 5 && n < 3 {
		return 4
	}
	return 0
}
