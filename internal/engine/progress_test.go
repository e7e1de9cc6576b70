package engine

import (
	"testing"
	"time"
)

// The estimate of the time left: the average of the targets explored so
// far for each one left, never beyond what the time bound leaves.
func TestLeft(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name     string
		tr       tracker
		want     time.Duration
		estimate bool
	}{
		{"no bound", tracker{total: 3}, 0, false},
		{"nothing explored yet: the bounds", tracker{total: 3, maxTimeBound: time.Minute}, 3 * time.Minute, true},
		{"the current target's bound left", tracker{total: 3, maxTimeBound: time.Minute, current: now.Add(-20 * time.Second)}, 2*time.Minute + 40*time.Second, true},
		{"the average of those explored", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute}, 20 * time.Second, true},
		{"the current one within the average", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, current: now.Add(-4 * time.Second)}, 16 * time.Second, true},
		{"the current one past the average", tracker{total: 3, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, current: now.Add(-40 * time.Second)}, 10 * time.Second, true},
		{"cached targets cost nothing", tracker{total: 5, done: 5, explored: 1, exploreTime: time.Second, maxTimeBound: time.Minute}, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &runner{track: tt.tr}
			got, ok := g.left(now)
			if got != tt.want || ok != tt.estimate {
				t.Errorf("left = %v, %v; want %v, %v", got, ok, tt.want, tt.estimate)
			}
		})
	}
}
