package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// summary is what a package's dowse gen -json stream reports.
type summary struct {
	targets     int // summary objects, one per target
	notExplored int // targets skipped or ended by an error
	failures    int // failing inputs, failures_omitted included
	documented  int // of those, documented panics and errors
	nilInputs   int // of those, caused by a nil receiver or argument
	errors      int // internal errors reported during exploration
	exhaustive  int // targets reported exhaustive
	cached      int // targets replayed from the result cache
	bugTargets  int // targets whose error says it is a bug in dowse
	messages    []message
}

// message is what a target's summary says instead of, or besides, its
// results: why it was skipped, its error, internal errors.
type message struct {
	target, text string
}

// target is the part of one dowse gen -json object the sweep reads.
type target struct {
	Target   string `json:"target"`
	Skipped  string `json:"skipped"`
	Error    string `json:"error"`
	Failures []struct {
		Documented bool `json:"documented"`
		NilInput   bool `json:"nil_input"`
	} `json:"failures"`
	FailuresOmitted int      `json:"failures_omitted"`
	Errors          []string `json:"errors"`
	Exhaustive      bool     `json:"exhaustive"`
	Cached          bool     `json:"cached"`
}

// summarize reads the JSON objects dowse gen -json wrote, stopping at the
// first one that does not decode (an interrupted run may end mid-object);
// messages lists the targets' errors and skip reasons.
func summarize(stream []byte) summary {
	var s summary
	dec := json.NewDecoder(bytes.NewReader(stream))
	for {
		var t target
		if dec.Decode(&t) != nil {
			return s
		}
		s.targets++
		if t.Skipped != "" || t.Error != "" {
			s.notExplored++
		}
		if t.Skipped != "" {
			s.messages = append(s.messages, message{t.Target, "skipped: " + t.Skipped})
		}
		if t.Error != "" {
			s.messages = append(s.messages, message{t.Target, "error: " + t.Error})
		}
		if strings.Contains(t.Error, "bug in dowse") {
			s.bugTargets++
		}
		for _, e := range t.Errors {
			s.messages = append(s.messages, message{t.Target, "internal error: " + e})
		}
		s.failures += len(t.Failures) + t.FailuresOmitted
		for _, f := range t.Failures {
			switch {
			case f.Documented:
				s.documented++
			case f.NilInput:
				s.nilInputs++
			}
		}
		s.errors += len(t.Errors)
		if t.Exhaustive {
			s.exhaustive++
		}
		if t.Cached {
			s.cached++
		}
	}
}

// numbers are the run and node numbers of internal errors, which differ
// between targets reporting the same error.
var numbers = regexp.MustCompile(`\b(run|node) \d+`)

// groupMessages folds the messages with the same text (up to run and
// node numbers) into one line each, "n targets (first: T): text" or
// "T: text", the most frequent first, then in order of appearance.
func groupMessages(msgs []message) []string {
	type group struct {
		first string
		n     int
	}
	var order []string
	groups := map[string]*group{}
	for _, m := range msgs {
		text := numbers.ReplaceAllString(m.text, "$1 N")
		g := groups[text]
		if g == nil {
			g = &group{first: m.target}
			groups[text] = g
			order = append(order, text)
		}
		g.n++
	}
	slices.SortStableFunc(order, func(a, b string) int { return groups[b].n - groups[a].n })
	lines := make([]string, len(order))
	for i, text := range order {
		g := groups[text]
		if g.n == 1 {
			lines[i] = g.first + ": " + text
		} else {
			lines[i] = fmt.Sprintf("%d targets (first: %s): %s", g.n, g.first, text)
		}
	}
	return lines
}

// diagnostic is a line of dowse gen's standard error worth reporting:
// its own messages, a panic, a compile error's position.
var diagnostic = regexp.MustCompile(`^(dowse|panic: |\S+\.go:\d+:\d+: )`)

// progressLine is a status line of the run's progress ("dowse: 1m03s,
// about 4m08s left, 1/6 targets: ..."), printed as a plain line when
// standard error is not a terminal: not a diagnostic.
var progressLine = regexp.MustCompile(`^dowse: \d[0-9hms.]*, `)

// diagnostics returns the lines of dowse gen's standard error that match
// diagnostic, progress lines left out, at most limit of the compile
// errors.
func diagnostics(stderr []byte, limit int) []string {
	var lines []string
	compile := 0
	for _, l := range strings.Split(string(stderr), "\n") {
		if !diagnostic.MatchString(l) || progressLine.MatchString(l) {
			continue
		}
		if !strings.HasPrefix(l, "dowse") && !strings.HasPrefix(l, "panic: ") {
			if compile++; compile > limit {
				continue
			}
		}
		lines = append(lines, l)
	}
	return lines
}

var coverRE = regexp.MustCompile(`coverage: ([0-9.]+%) of statements`)

// coverageOf returns the statement coverage go test -cover printed, or
// "" if it printed none.
func coverageOf(out []byte) string {
	m := coverRE.FindSubmatch(out)
	if m == nil {
		return ""
	}
	return string(m[1])
}

// failureLine is a line of go test's output that says why it failed: a
// compile error's position or a failed test.
var failureLine = regexp.MustCompile(`(?m)^(\S+\.go:\d+:\d+: .*|--- FAIL: .*|panic: .*|FAIL\s.*\[build failed\].*|# .*\[.*test\])$`)

// firstFailure returns the first line of go test's output that says why
// it failed, or its last non-empty line if none does.
func firstFailure(out []byte) string {
	if m := failureLine.Find(out); m != nil {
		return strings.TrimSpace(string(m))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// bugLines returns the lines of out that say dowse itself went wrong.
func bugLines(out []byte) []string {
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "bug in dowse") {
			lines = append(lines, sc.Text())
		}
	}
	return lines
}

// silenceWriter records what is written to it and the longest time
// without a write, counted from its start; several writers may share one
// clock, so that the silence is that of all a command's outputs.
type silenceWriter struct {
	buf   bytes.Buffer
	clock *silenceClock
}

func (w *silenceWriter) Write(p []byte) (int, error) {
	w.clock.tick(time.Now())
	w.clock.mu.Lock()
	defer w.clock.mu.Unlock()
	return w.buf.Write(p)
}

// silenceClock is the time of the last write to any of a command's
// outputs and the longest gap between writes so far.
type silenceClock struct {
	mu      sync.Mutex
	last    time.Time
	longest time.Duration
}

func newSilenceClock(start time.Time) *silenceClock {
	return &silenceClock{last: start}
}

// tick records a write at now.
func (c *silenceClock) tick(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.longest = max(c.longest, now.Sub(c.last))
	c.last = now
}

// end records the end of the command at now: a silence up to the end
// counts too. It returns the longest silence.
func (c *silenceClock) end(now time.Time) time.Duration {
	c.tick(now)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.longest
}
