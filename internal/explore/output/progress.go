package output

import (
	"fmt"
	"strings"
	"time"
)

// Phases of a run of dowse gen, as Progress.Phase names them.
const (
	PhaseLoad     = "load"     // loading and type-checking the packages
	PhaseBuild    = "build"    // building a package's instrumented worker binary
	PhaseExplore  = "explore"  // exploring a target: the counts grow
	PhaseExplored = "explored" // a target's exploration ended: the counts are final
	PhaseWrite    = "write"    // writing a package's files and running its generated tests
)

// Progress is where a run of dowse gen is: a snapshot the engine hands
// over at every step (a package built, a target started, a batch of runs,
// a target explored, files written). Its JSON form is the member
// "progress" of the progress events of -json (docs/output.md); fields
// are only ever added.
type Progress struct {
	Phase   string `json:"phase"`
	Package string `json:"package,omitempty"`
	Target  string `json:"target,omitempty"`
	// TargetsDone counts the selected targets whose exploration ended
	// (or that were not explored: cached, errors), Targets all of them.
	TargetsDone int `json:"targets_done"`
	Targets     int `json:"targets"`
	// The counts of the target being explored (phases explore and
	// explored). In phase explored they are those of its result: Runs,
	// Paths, Covered (Coverage.Covered) and Failures (failing paths
	// listed, len(Target.Failures)).
	Runs     int `json:"runs"`
	Paths    int `json:"paths"`
	Covered  int `json:"covered"`
	Outcomes int `json:"outcomes,omitempty"` // branch outcomes of its binary (0: not known yet)
	Failures int `json:"failures"`
	// ElapsedSeconds is the time since the run began; LeftSeconds, when
	// known, an estimate of the time left: the exploration time left
	// (from the targets explored so far, never beyond what the time
	// bounds leave) and, for each package not done, the average time the
	// packages done took to build, write their files and run their
	// generated tests; never beyond the end of the whole-run budget.
	// LeftBudget says that the budget's end, not the work, is the
	// estimate.
	ElapsedSeconds float64  `json:"elapsed_seconds"`
	LeftSeconds    *float64 `json:"left_seconds,omitempty"`
	LeftBudget     bool     `json:"left_budget,omitempty"`
}

// ProgressHandler is a Handler that is also told where the run is.
// Progress is called from the goroutine that runs the pipeline, as
// Target is; an implementation that writes from other goroutines too
// (a timer) must serialize its writes.
type ProgressHandler interface {
	Handler
	Progress(p Progress)
}

// advanced is p as it stands d after it was taken: the elapsed time
// grows and, while a target is explored or a package built, the
// estimate of the time left shrinks, no lower than 0.
func (p Progress) advanced(d time.Duration) Progress {
	p.ElapsedSeconds += d.Seconds()
	if p.LeftSeconds != nil && (p.Phase == PhaseExplore || p.Phase == PhaseBuild || p.LeftBudget) {
		left := max(0, *p.LeftSeconds-d.Seconds())
		p.LeftSeconds = &left
	}
	return p
}

// Line is the one-line text form of p, for a status line or a log:
// what matters most first, as a line too long for the terminal is cut
// at its end.
func (p Progress) Line() string {
	var b strings.Builder
	b.WriteString(clock(p.ElapsedSeconds))
	if p.LeftSeconds != nil && *p.LeftSeconds >= 0.5 {
		fmt.Fprintf(&b, ", about %s left", clock(*p.LeftSeconds))
		if p.LeftBudget {
			b.WriteString(" (the budget's end)")
		}
	}
	fmt.Fprintf(&b, ", %d/%d targets: ", p.TargetsDone, p.Targets)
	switch p.Phase {
	case PhaseLoad:
		b.WriteString("loading packages")
	case PhaseBuild:
		fmt.Fprintf(&b, "building %s", p.Package)
	case PhaseWrite:
		fmt.Fprintf(&b, "writing and testing %s", p.Package)
	case PhaseExplore, PhaseExplored:
		fmt.Fprintf(&b, "%s %s", p.Package, p.Target)
		if p.Phase == PhaseExplored {
			b.WriteString(" done")
		}
		fmt.Fprintf(&b, ": %s, %s, %s, ", plural(p.Failures, "failure"), plural(p.Runs, "run"), plural(p.Paths, "path"))
		if p.Outcomes > 0 {
			fmt.Fprintf(&b, "%d/%d branch outcomes", p.Covered, p.Outcomes)
		} else {
			b.WriteString(plural(p.Covered, "branch outcome"))
		}
	default:
		b.WriteString(p.Phase)
	}
	return b.String()
}

// clock writes a number of seconds as 7s, 1m05s or 2h03m.
func clock(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
