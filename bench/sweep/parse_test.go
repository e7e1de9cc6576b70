package main

import (
	"reflect"
	"slices"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   summary
	}{
		{name: "empty", stream: "", want: summary{}},
		{
			name: "explored, skipped, failed",
			stream: `{"target":"Parse","exhaustive":true,"failures":[]}
{"target":"T.M","skipped":"no exported constructor"}
{"target":"Split","failures":[{"documented":true},{"nil_input":true},{}],"failures_omitted":2,"errors":["worker ended"]}
`,
			want: summary{
				targets: 3, notExplored: 1, failures: 5, documented: 1, nilInputs: 1, errors: 1, exhaustive: 1,
				messages: []message{{"T.M", "skipped: no exported constructor"}, {"Split", "internal error: worker ended"}},
			},
		},
		{
			name:   "interrupted mid-object",
			stream: `{"target":"A","error":"the instrumented package did not build (a bug in dowse)","cached":true}` + "\n" + `{"target":"B","fail`,
			want: summary{
				targets: 1, notExplored: 1, cached: 1, bugTargets: 1,
				messages: []message{{"A", "error: the instrumented package did not build (a bug in dowse)"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := summarize([]byte(tt.stream)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("summarize = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestGroupMessages(t *testing.T) {
	tests := []struct {
		name string
		msgs []message
		want []string
	}{
		{name: "none", msgs: nil, want: []string{}},
		{
			name: "one each",
			msgs: []message{{"A", "skipped: generic"}, {"B", "error: interrupted"}},
			want: []string{"A: skipped: generic", "B: error: interrupted"},
		},
		{
			name: "same text up to run and node numbers",
			msgs: []message{
				{"A", "skipped: generic"},
				{"B", "internal error: run 12: decode node 128: conv"},
				{"C", "internal error: run 7: decode node 3: conv"},
			},
			want: []string{"2 targets (first: B): internal error: run N: decode node N: conv", "A: skipped: generic"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := groupMessages(tt.msgs); !slices.Equal(got, tt.want) {
				t.Errorf("groupMessages = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiagnostics(t *testing.T) {
	stderr := `dowse gen: building the instrumented package m failed (a bug in dowse; work directory kept at /tmp/w): exit status 1
# m [m.test]
/tmp/w/overlay/a_test.go:68:59: undefined: T
/tmp/w/overlay/a_test.go:106:68: undefined: T
	/tmp/w/overlay/a_test.go:1:1: other declaration of T
/tmp/w/overlay/a_test.go:107:1: undefined: U
dowse: 1m03s, about 4m08s left, 1/6 targets: m Match done: 0 failures, 15626 runs, 6013 paths, 74/144 branch outcomes
panic: sym: not of kind bool
goroutine 1 [running]:
dowse gen: work directory: /tmp/w
`
	want := []string{
		"dowse gen: building the instrumented package m failed (a bug in dowse; work directory kept at /tmp/w): exit status 1",
		"/tmp/w/overlay/a_test.go:68:59: undefined: T",
		"/tmp/w/overlay/a_test.go:106:68: undefined: T",
		"panic: sym: not of kind bool",
		"dowse gen: work directory: /tmp/w",
	}
	if got := diagnostics([]byte(stderr), 2); !slices.Equal(got, want) {
		t.Errorf("diagnostics = %q, want %q", got, want)
	}
}

func TestCoverageOf(t *testing.T) {
	tests := []struct {
		out, want string
	}{
		{"ok  \texample.com/m\t0.012s\tcoverage: 87.5% of statements\n", "87.5%"},
		{"ok  \texample.com/m\t0.012s\tcoverage: 0.0% of statements\n", "0.0%"},
		{"--- FAIL: TestX (0.00s)\nFAIL\ncoverage: 12.3% of statements\nFAIL\texample.com/m\t0.1s\n", "12.3%"},
		{"?   \texample.com/m\t[no test files]\n", ""},
		{"# example.com/m [example.com/m.test]\n./a_test.go:3:2: undefined: x\nFAIL\texample.com/m [build failed]\n", ""},
	}
	for _, tt := range tests {
		if got := coverageOf([]byte(tt.out)); got != tt.want {
			t.Errorf("coverageOf(%q) = %q, want %q", tt.out, got, tt.want)
		}
	}
}

func TestFirstFailure(t *testing.T) {
	tests := []struct {
		out, want string
		failed    bool
	}{
		{"# example.com/m [example.com/m.test]\n./a_dowse_auto_test.go:3:2: undefined: x\nFAIL\texample.com/m [build failed]\n", "# example.com/m [example.com/m.test]", true},
		{"--- FAIL: TestDowseParse (0.00s)\n    a_test.go:9: got 1\nFAIL\n", "--- FAIL: TestDowseParse (0.00s)", true},
		{"panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1\n", "panic: runtime error: index out of range [3] with length 3", true},
		{"go: updates to go.mod needed\n\n", "go: updates to go.mod needed", false},
	}
	for _, tt := range tests {
		if got := firstFailure([]byte(tt.out)); got != tt.want {
			t.Errorf("firstFailure(%q) = %q, want %q", tt.out, got, tt.want)
		}
		if got := failed([]byte(tt.out)); got != tt.failed {
			t.Errorf("failed(%q) = %v, want %v", tt.out, got, tt.failed)
		}
	}
}

func TestBugLines(t *testing.T) {
	out := "dowse gen: x\nParse: the instrumented package did not build (a bug in dowse; see the error above)\nok\n"
	want := []string{"Parse: the instrumented package did not build (a bug in dowse; see the error above)"}
	if got := bugLines([]byte(out)); !slices.Equal(got, want) {
		t.Errorf("bugLines = %q, want %q", got, want)
	}
}

func TestSilenceClock(t *testing.T) {
	start := time.Unix(1000, 0)
	tests := []struct {
		name   string
		writes []time.Duration // after start
		end    time.Duration
		want   time.Duration
	}{
		{"no output", nil, 90 * time.Second, 90 * time.Second},
		{"gap between writes", []time.Duration{time.Second, 2 * time.Second, 40 * time.Second}, 41 * time.Second, 38 * time.Second},
		{"silent to the end", []time.Duration{time.Second}, 70 * time.Second, 69 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newSilenceClock(start)
			for _, w := range tt.writes {
				c.tick(start.Add(w))
			}
			if got := c.end(start.Add(tt.end)); got != tt.want {
				t.Errorf("longest silence = %v, want %v", got, tt.want)
			}
		})
	}
}
