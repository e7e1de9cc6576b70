package engine

import (
	"testing"
	"time"
)

// A package keeps twice the time its build took, and the last search's
// grace, for writing and confirming its rows, but never more than half
// of its allotment.
func TestReserve(t *testing.T) {
	for _, tt := range []struct {
		name                  string
		allotted, build, want time.Duration
	}{
		{"twice the build and the grace", 5 * time.Minute, 10 * time.Second, 23 * time.Second},
		{"at most half the allotment", 30 * time.Second, 20 * time.Second, 15 * time.Second},
		{"nothing allotted", 0, 10 * time.Second, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := reserve(tt.allotted, tt.build); got != tt.want {
				t.Errorf("reserve(%v, %v) = %v, want %v", tt.allotted, tt.build, got, tt.want)
			}
		})
	}
}
