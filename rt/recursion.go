package rt

import (
	"runtime"
	"strings"
)

// RecursionFrames is the number of frames of one function on the call
// stack from which a run the branch bound stops is said to be stopped by
// recursion (Result.Recursion) rather than by a loop.
const RecursionFrames = 32

// maxStackScan bounds the frames recursion reads.
const maxStackScan = 1 << 14

// recursion returns the function of the code under test that appears
// most often on the calling goroutine's stack, and how often, if that is
// at least RecursionFrames times; "" and 0 otherwise. The frames of the
// runtime and of the testing and reflect packages are not counted. The
// depth counts the first maxStackScan frames only.
func recursion() (string, int) {
	pcs := make([]uintptr, maxStackScan)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	counts := map[string]int{}
	best, depth := "", 0
	for {
		fr, more := frames.Next()
		fn := fr.Function
		if fn != "" && !strings.HasPrefix(fn, "runtime.") && !strings.HasPrefix(fn, "testing.") && !strings.HasPrefix(fn, "reflect.") {
			counts[fn]++
			if c := counts[fn]; c > depth {
				best, depth = fn, c
			}
		}
		if !more {
			break
		}
	}
	if depth < RecursionFrames {
		return "", 0
	}
	return best, depth
}
