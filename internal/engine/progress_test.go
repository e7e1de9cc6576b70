package engine

import (
	"testing"
	"time"
)

// The estimate of the time left: the average of the targets explored so
// far for each one left, never beyond what the time bound leaves; the
// average time the packages done took besides exploring for each
// package left; never beyond the end of the whole-run budget, which is
// then said to decide it.
func TestLeft(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name     string
		tr       tracker
		want     time.Duration
		byBudget bool
		estimate bool
	}{
		{"no bound", tracker{total: 3}, 0, false, false},
		{"nothing explored yet: the bounds", tracker{total: 3, maxTimeBound: time.Minute}, 3 * time.Minute, false, true},
		{"the current target's bound left", tracker{total: 3, maxTimeBound: time.Minute, current: now.Add(-20 * time.Second)}, 2*time.Minute + 40*time.Second, false, true},
		{"the average of those explored", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute}, 20 * time.Second, false, true},
		{"the current one within the average", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, current: now.Add(-4 * time.Second)}, 16 * time.Second, false, true},
		{"the current one past the average", tracker{total: 3, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, current: now.Add(-40 * time.Second)}, 10 * time.Second, false, true},
		{"cached targets cost nothing", tracker{total: 5, done: 5, explored: 1, exploreTime: time.Second, maxTimeBound: time.Minute}, 0, false, true},
		{"the builds of the packages left", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, pkgs: 3, pkgsDone: 1, overhead: 10 * time.Second}, 20*time.Second + 2*10*time.Second, false, true},
		{"the package being built", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, pkgs: 3, pkgsDone: 1, overhead: 10 * time.Second, pkgStart: now.Add(-4 * time.Second)}, 20*time.Second + 6*time.Second + 10*time.Second, false, true},
		{"exploring: its time is no overhead", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, pkgs: 2, pkgsDone: 1, overhead: 10 * time.Second, pkgStart: now.Add(-8 * time.Second), current: now.Add(-4 * time.Second)}, 6*time.Second + 10*time.Second + 6*time.Second, false, true},
		{"the budget ends first", tracker{total: 2, maxTimeBound: time.Minute, deadline: now.Add(40 * time.Second)}, 40 * time.Second, true, true},
		{"the budget alone", tracker{total: 2, deadline: now.Add(40 * time.Second)}, 40 * time.Second, true, true},
		{"the budget spent", tracker{total: 2, maxTimeBound: time.Minute, deadline: now.Add(-time.Second)}, 0, true, true},
		{"the work ends first", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, deadline: now.Add(time.Minute)}, 20 * time.Second, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &runner{track: tt.tr}
			got, byBudget, ok := g.left(now)
			if got != tt.want || byBudget != tt.byBudget || ok != tt.estimate {
				t.Errorf("left = %v, %v, %v; want %v, %v, %v", got, byBudget, ok, tt.want, tt.byBudget, tt.estimate)
			}
		})
	}
}
