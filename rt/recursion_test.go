package rt

import (
	"strings"
	"testing"
)

// descend calls itself n times, then reports what recursion sees.
func descend(n int) (string, int) {
	if n == 0 {
		return recursion()
	}
	return descend(n - 1)
}

func TestRecursion(t *testing.T) {
	for _, tt := range []struct {
		calls     int
		recursive bool
	}{
		{calls: 5},
		{calls: RecursionFrames - 2},
		{calls: RecursionFrames, recursive: true},
		{calls: 1000, recursive: true},
	} {
		fn, depth := descend(tt.calls)
		if !tt.recursive {
			if fn != "" || depth != 0 {
				t.Errorf("%d calls: got %s %d, want none", tt.calls, fn, depth)
			}
			continue
		}
		if !strings.HasSuffix(fn, "/rt.descend") || depth != tt.calls+1 {
			t.Errorf("%d calls: got %s %d, want rt.descend %d", tt.calls, fn, depth, tt.calls+1)
		}
	}
}
