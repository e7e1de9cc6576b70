package explore

import "github.com/dowse-go/dowse/rt"

// Counts are the live counts of an exploration, handed to
// Config.Progress after every batch of runs: a snapshot, safe to keep.
type Counts struct {
	Runs     int // runs executed (of every search of ExploreRaising)
	Paths    int // distinct paths of the current search
	Covered  int // branch outcomes seen, the input construction's choices aside
	Failures int // failing paths listed so far
}

// counts is the snapshot of e's counts now.
func (e *explorer) counts() Counts {
	return Counts{Runs: e.runs, Paths: e.rep.Paths, Covered: e.coveredCode, Failures: len(e.rep.Failures)}
}

// progress hands the counts to cfg.Progress, if set.
func (e *explorer) progress() {
	if e.cfg.Progress != nil {
		e.cfg.Progress(e.counts())
	}
}

// countOutcome counts a branch outcome seen for the first time.
func (e *explorer) countOutcome(b Branch) {
	if b.Site != rt.InputSite && (e.cfg.Counted == nil || e.cfg.Counted(b.Site)) {
		e.coveredCode++
	}
}

// withRunsBefore returns a Progress function that adds runs, the runs
// of the searches before, to the counts it hands to f (nil if f is).
func withRunsBefore(f func(Counts), runs int) func(Counts) {
	if f == nil {
		return nil
	}
	return func(c Counts) {
		c.Runs += runs
		f(c)
	}
}
