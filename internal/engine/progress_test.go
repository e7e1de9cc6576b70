package engine

import (
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// The estimate of the time left: the average of the targets explored so
// far for each one left, never beyond what the time bound leaves nor
// beyond the whole-run budget's deadline.
func TestLeft(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name     string
		tr       tracker
		want     time.Duration
		estimate bool
		deadline time.Time // of the whole-run budget (zero: none)
	}{
		{"no bound", tracker{total: 3}, 0, false, time.Time{}},
		{"nothing explored yet: the bounds", tracker{total: 3, maxTimeBound: time.Minute}, 3 * time.Minute, true, time.Time{}},
		{"the current target's bound left", tracker{total: 3, maxTimeBound: time.Minute, current: now.Add(-20 * time.Second)}, 2*time.Minute + 40*time.Second, true, time.Time{}},
		{"the average of those explored", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute}, 20 * time.Second, true, time.Time{}},
		{"the current one within the average", tracker{total: 4, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, current: now.Add(-4 * time.Second)}, 16 * time.Second, true, time.Time{}},
		{"the current one past the average", tracker{total: 3, done: 2, explored: 2, exploreTime: 20 * time.Second, maxTimeBound: time.Minute, current: now.Add(-40 * time.Second)}, 10 * time.Second, true, time.Time{}},
		{"cached targets cost nothing", tracker{total: 5, done: 5, explored: 1, exploreTime: time.Second, maxTimeBound: time.Minute}, 0, true, time.Time{}},
		{"no more than the budget leaves", tracker{total: 6, maxTimeBound: time.Minute}, 4*time.Minute + 57*time.Second, true, now.Add(4*time.Minute + 57*time.Second)},
		{"the bounds, within the budget", tracker{total: 6, maxTimeBound: time.Minute}, 6 * time.Minute, true, now.Add(10 * time.Minute)},
		{"the budget without a bound", tracker{total: 3}, 2 * time.Minute, true, now.Add(2 * time.Minute)},
		{"the budget spent", tracker{total: 3, maxTimeBound: time.Minute}, 0, true, now.Add(-time.Second)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := &runner{track: tt.tr}
			if !tt.deadline.IsZero() {
				g.sched = &scheduler{deadline: tt.deadline}
			}
			got, ok := g.left(now)
			if got != tt.want || ok != tt.estimate {
				t.Errorf("left = %v, %v; want %v, %v", got, ok, tt.want, tt.estimate)
			}
		})
	}
}

// progressLog is a ProgressHandler that keeps the events.
type progressLog struct{ events []output.Progress }

func (l *progressLog) Target(*Result) error       { return nil }
func (l *progressLog) Progress(p output.Progress) { l.events = append(l.events, p) }

// A progress event says when its estimate is the budget's time left,
// which runs out while a package builds too.
func TestProgressLeftIsBudget(t *testing.T) {
	for _, tt := range []struct {
		name     string
		deadline time.Duration // from now; 0: no budget
		want     bool
	}{
		{"the budget ends first", 30 * time.Second, true},
		{"the targets' bounds end first", time.Hour, false},
		{"no budget", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			log := &progressLog{}
			g := &runner{h: log, track: tracker{total: 3, maxTimeBound: time.Minute, phase: output.PhaseBuild}}
			if tt.deadline > 0 {
				g.sched = &scheduler{deadline: time.Now().Add(tt.deadline)}
			}
			g.progress()
			if len(log.events) != 1 || log.events[0].LeftSeconds == nil || log.events[0].LeftIsBudget != tt.want {
				t.Fatalf("events %+v; want one with an estimate, LeftIsBudget %v", log.events, tt.want)
			}
		})
	}
}
