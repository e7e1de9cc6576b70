package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
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
	messages    []string
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
			s.messages = append(s.messages, t.Target+": skipped: "+t.Skipped)
		}
		if t.Error != "" {
			s.messages = append(s.messages, t.Target+": error: "+t.Error)
		}
		for _, e := range t.Errors {
			s.messages = append(s.messages, t.Target+": internal error: "+e)
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
