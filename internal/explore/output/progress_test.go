package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func secs(s float64) *float64 { return &s }

// progressSteps is a run of two targets as the engine reports it: at
// each second of a fake clock, an event, a tick of the timer, or the
// result of a target written out.
var progressSteps = []struct {
	at     float64   // seconds since the run began
	p      *Progress // an event
	tick   bool      // the timer fires
	output string    // other output written through Status.Writer
}{
	{at: 0, p: &Progress{Phase: PhaseLoad}},
	{at: 2, p: &Progress{Phase: PhaseBuild, Package: "example.com/m", Targets: 2, ElapsedSeconds: 2, LeftSeconds: secs(120)}},
	{at: 4, tick: true},
	{at: 9, p: &Progress{Phase: PhaseExplore, Package: "example.com/m", Target: "PutParse", Targets: 2, Outcomes: 40, ElapsedSeconds: 9, LeftSeconds: secs(120)}},
	{at: 9.5, p: &Progress{Phase: PhaseExplore, Package: "example.com/m", Target: "PutParse", Targets: 2, Runs: 8, Paths: 5, Covered: 9, Outcomes: 40, ElapsedSeconds: 9.5, LeftSeconds: secs(119.5)}},
	{at: 10, output: "dowse gen: warning: something to say\n"},
	{at: 12.5, tick: true},
	{at: 13, p: &Progress{Phase: PhaseExplore, Package: "example.com/m", Target: "PutParse", Targets: 2, Runs: 1204, Paths: 310, Covered: 31, Outcomes: 40, Failures: 2, ElapsedSeconds: 13, LeftSeconds: secs(116)}},
	{at: 13.5, p: &Progress{Phase: PhaseExplore, Package: "example.com/m", Target: "PutParse", Targets: 2, Runs: 1300, Paths: 320, Covered: 31, Outcomes: 40, Failures: 2, ElapsedSeconds: 13.5, LeftSeconds: secs(115.5)}},
	{at: 16, tick: true},
	{at: 20, p: &Progress{Phase: PhaseExplored, Package: "example.com/m", Target: "PutParse", TargetsDone: 1, Targets: 2, Runs: 2000, Paths: 400, Covered: 33, Outcomes: 40, Failures: 2, ElapsedSeconds: 20, LeftSeconds: secs(11)}},
	{at: 20, p: &Progress{Phase: PhaseExplore, Package: "example.com/m", Target: "FuzzLoad", TargetsDone: 1, Targets: 2, Outcomes: 40, ElapsedSeconds: 20, LeftSeconds: secs(11), LeftBudget: true}},
	{at: 31, p: &Progress{Phase: PhaseExplored, Package: "example.com/m", Target: "FuzzLoad", TargetsDone: 2, Targets: 2, Runs: 90, Paths: 12, Covered: 20, Outcomes: 40, ElapsedSeconds: 31, LeftSeconds: secs(0)}},
	{at: 31, p: &Progress{Phase: PhaseWrite, Package: "example.com/m", TargetsDone: 2, Targets: 2, ElapsedSeconds: 31, LeftSeconds: secs(0)}},
	{at: 35, tick: true},
	{at: 36, output: "example.com/m: 2 targets\n"},
}

// visible shows the terminal's control sequences.
func visible(s string) string {
	s = strings.ReplaceAll(s, "\r", "<CR>")
	s = strings.ReplaceAll(s, "\x1b[K", "<EL>")
	return strings.ReplaceAll(s, "<EL><CR>", "<EL>\n<CR>")
}

// TestStatusGolden runs the steps through a status line on a terminal
// and through plain lines, and the events through the JSON stream.
func TestStatusGolden(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, mode := range []struct {
		name string
		mode StatusMode
	}{{"term", StatusTerminal}, {"plain", StatusPlain}} {
		t.Run(mode.name, func(t *testing.T) {
			var buf bytes.Buffer
			var now time.Time
			s := newStatus(&buf, mode.mode, 100, 3*time.Second) // the test ticks
			s.now = func() time.Time { return now }
			w := s.Writer(&buf)
			for _, st := range progressSteps {
				now = start.Add(time.Duration(st.at * float64(time.Second)))
				switch {
				case st.p != nil:
					s.Progress(*st.p)
				case st.tick:
					s.onTick()
				default:
					fmt.Fprint(w, st.output)
				}
			}
			s.Close()
			checkGolden(t, filepath.Join("testdata", "progress."+mode.name+".txt"), visible(buf.String()))
		})
	}
	t.Run("json", func(t *testing.T) {
		var buf bytes.Buffer
		var now time.Time
		h := NewJSONHandler(&buf).WithProgress(0)
		h.now = func() time.Time { return now }
		for _, st := range progressSteps {
			now = start.Add(time.Duration(st.at * float64(time.Second)))
			if st.p != nil {
				h.Progress(*st.p)
			}
		}
		if err := h.Target(&Target{Package: "example.com/m", Target: "PutParse", Failures: []Failure{}, Files: []string{}}); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("testdata", "progress.json"), buf.String())
		// Every line is one object: a progress event or a target.
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%v: %s", err, line)
			}
			if _, isEvent := m["progress"]; isEvent == (m["target"] != nil) {
				t.Errorf("neither or both a progress event and a target: %s", line)
			}
		}
	})
	t.Run("json off", func(t *testing.T) {
		var buf bytes.Buffer
		h := NewJSONHandler(&buf)
		h.Progress(Progress{Phase: PhaseLoad})
		if buf.Len() != 0 {
			t.Errorf("progress events without WithProgress: %s", buf.String())
		}
	})
}

// A line longer than the terminal is cut to its width, so that the
// carriage return goes back to its start.
func TestStatusWidth(t *testing.T) {
	var buf bytes.Buffer
	s := NewStatus(&buf, StatusTerminal, 40, time.Hour)
	s.Progress(Progress{Phase: PhaseExplore, Package: "example.com/a/rather/long/path", Target: "PutSomething", Targets: 3})
	s.Close()
	line := strings.TrimPrefix(strings.Split(buf.String(), "\x1b[K")[0], "\r")
	if n := len([]rune(line)); n != 39 || !strings.HasSuffix(line, "…") {
		t.Errorf("line of %d runes %q, want 39 ending in an ellipsis", n, line)
	}
}

func TestClock(t *testing.T) {
	for _, tt := range []struct {
		s    float64
		want string
	}{{0, "0s"}, {7.4, "7s"}, {59.6, "1m00s"}, {65, "1m05s"}, {3600 + 180, "1h03m"}} {
		if got := clock(tt.s); got != tt.want {
			t.Errorf("clock(%v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// In plain mode the timer's lines and other output written through
// Writer to one buffer do not race (go test -race).
func TestStatusPlainWriter(t *testing.T) {
	var buf bytes.Buffer
	s := NewStatus(&buf, StatusPlain, 0, time.Millisecond)
	s.Progress(Progress{Phase: PhaseBuild, Package: "p", Targets: 1})
	w := s.Writer(&buf)
	for range 200 {
		fmt.Fprintln(w, "dowse gen: a warning")
		time.Sleep(50 * time.Microsecond)
	}
	s.Close()
	if !strings.Contains(buf.String(), "building p") || strings.Count(buf.String(), "a warning\n") != 200 {
		t.Errorf("no status line, or warnings lost:\n%s", buf.String())
	}
}

// Between events the estimate of the time left shrinks while a target
// is explored or a package built, and in every phase when it is the
// budget's time left: writing files under the budget uses it up,
// writing them without one does not.
func TestProgressAdvanced(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    Progress
		want float64
	}{
		{"exploring", Progress{Phase: PhaseExplore, LeftSeconds: secs(100)}, 90},
		{"building", Progress{Phase: PhaseBuild, LeftSeconds: secs(100)}, 90},
		{"writing, the work's estimate", Progress{Phase: PhaseWrite, LeftSeconds: secs(100)}, 100},
		{"writing, the budget's end", Progress{Phase: PhaseWrite, LeftSeconds: secs(100), LeftBudget: true}, 90},
		{"no lower than 0", Progress{Phase: PhaseWrite, LeftSeconds: secs(4), LeftBudget: true}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.p.advanced(10 * time.Second)
			if got.ElapsedSeconds != 10 || *got.LeftSeconds != tt.want {
				t.Errorf("advanced: elapsed %v, left %v; want 10, %v", got.ElapsedSeconds, *got.LeftSeconds, tt.want)
			}
		})
	}
}
