package parallel

import "testing"

// PutParallel is a parallel PUT: it fails for 5.
func PutParallel(t *testing.T, n int) {
	t.Parallel()
	if Grade(n) == "five" {
		t.Error("five")
	}
}

// PutParallelSub fails for 7 in a parallel subtest.
func PutParallelSub(t *testing.T, n int) {
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		if n == 7 {
			t.Error("seven")
		}
	})
}

// PutAfterReturn's parallel subtest runs after the PUT returns, as go
// test runs it: it sees done set, and fails for 3.
func PutAfterReturn(t *testing.T, n int) {
	done := false
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		if done && n == 3 {
			t.Error("three, after the PUT returned")
		}
	})
	done = true
}
