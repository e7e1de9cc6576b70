package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// This file runs dowse gen on targets whose inputs are rich values:
// structs built by constructors, maps of any shape, floats, and the
// automatic targets' receivers.

// TestRichInputs explores testdata/richinputs, whose PUTs take pointers,
// a linked list, a slice of lists, an error, a context, a writer and func
// values (stubs whose results are inputs): each
// failing input must be found (the nil pointer's panic among them), the
// pointer-only targets explored exhaustively without divergences (the
// choices of input construction are branches like any other), and the
// generated file must compile and pass.
func TestRichInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "richinputs")), "-json", "-max-len", "3", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s", code, stderr)
	}
	type result struct {
		Target      string `json:"target"`
		Exhaustive  bool   `json:"exhaustive"`
		Divergences int    `json:"divergences"`
		Failures    []struct {
			Input string `json:"input"`
		} `json:"failures"`
		Coverage struct {
			Sites, Outcomes, Covered int
		} `json:"coverage"`
	}
	var full []result
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var r result
		if err := dec.Decode(&r); err != nil {
			break
		}
		full = append(full, r)
	}
	want := map[string]struct {
		failures   []string // each failure's input must contain one, in order
		exhaustive bool
	}{
		"PutQuadrant": {[]string{"p.X=-7"}, true},
		"PutSum":      {[]string{"n.Next.Next != nil=true"}, true},
		"PutX":        {[]string{"p != nil=false", "p != nil=true"}, true},
		"PutReport":   {[]string{"err != nil=true"}, false}, // fmt.Fprint concretizes x
		"PutNodes":    {nil, true},
		"PutRetry":    {[]string{"op.call[2].r0 != nil=false"}, true}, // a stub that fails twice, then succeeds
		"PutCount":    {[]string{"xs[0]=5", "xs[0]=5"}, true},         // either call of the stub may keep
		"PutDescribe": {[]string{"v.(type)=3"}, false},                // a bool in an any; its value is concrete
		// r.Read in instrumented code: the bytes keep their shadows.
		"PutIsGIF": {[]string{"len(r)=3, r[0]=71, r[1]=73, r[2]=70"}, true},
		"PutIsOK":  {[]string{"len(r)=2, r[0]=111, r[1]=107"}, true}, // io.ReadAll's model
		// A bufio.Scanner reads the bytes: a concretization, never
		// exhaustive (the failure is out of reach).
		"PutFirstLine": {nil, false},
		// Receives from a buffered, closed channel keep the elements'
		// shadows: a range (one path per length), v, ok := <-in, and
		// len/cap of a send-only channel.
		"PutTotal":     {[]string{"len(in)=1, in[0]=42", "len(in)=2, in[0]=42", "len(in)=3, in[0]=42"}, true},
		"PutFirst":     {[]string{`len(in)=1, in[0]="go"`}, true},
		"PutCountdown": {[]string{"n=", "n="}, true},
		// A receive in a select is not followed: never exhaustive.
		"PutPoll": {nil, false},
	}
	if len(full) != len(want) {
		t.Fatalf("%d summaries, want %d\n%s", len(full), len(want), stdout)
	}
	for _, s := range full {
		w := want[s.Target]
		var inputs []string
		for _, f := range s.Failures {
			inputs = append(inputs, f.Input)
		}
		ok := len(inputs) == len(w.failures)
		for i := 0; ok && i < len(inputs); i++ {
			ok = strings.Contains(inputs[i], w.failures[i])
		}
		if !ok {
			t.Errorf("%s: failures with inputs %q, want %q", s.Target, inputs, w.failures)
		}
		if s.Exhaustive != w.exhaustive || s.Divergences != 0 {
			t.Errorf("%s: exhaustive %v with %d divergences, want %v without", s.Target, s.Exhaustive, s.Divergences, w.exhaustive)
		}
		if s.Coverage.Covered > s.Coverage.Outcomes {
			t.Errorf("%s: %d outcomes covered of %d", s.Target, s.Coverage.Covered, s.Coverage.Outcomes)
		}
	}
	generatedTestsPass(t, dir)
}

// TestBuiltFromPointerConstructor explores a value-receiver method of a
// type whose fields are unexported and that has no method to change it:
// the only way to make one is the constructor, which returns a pointer,
// so the receiver is its pointee (rt.Build.Deref). Count's parameters are
// named like the generated table's fields for expected values.
func TestBuiltFromPointerConstructor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/deref\n\ngo 1.22\n",
		"deref.go": `package deref

import "errors"

// Range is an inclusive range of ints.
type Range struct{ lo, hi int }

// NewRange returns the range [lo, hi].
func NewRange(lo, hi int) (*Range, error) {
	if hi < lo {
		return nil, errors.New("empty")
	}
	return &Range{lo, hi}, nil
}

// Width is the number of ints in r.
func (r Range) Width() int { return r.hi - r.lo + 1 }

// Count has parameters named like the fields of a generated table's
// expected values: the table must still compile.
func Count(want []string, unchecked bool) int {
	if unchecked {
		return -1
	}
	return len(want)
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "3", "./...")
	if code != 0 {
		t.Fatalf("exit code %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	if s, ok := got["Range.Width"]; !ok || s.Paths == 0 {
		t.Fatalf("Range.Width not explored\n%s", stdout)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "deref_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gen), "return *built") {
		t.Errorf("Range values are not built from NewRange's pointer\n%s", gen)
	}
	generatedTestsPass(t, dir)
}

// TestAutomaticTargets explores testdata/auto, a package without any test:
// every exported function and method is a target (kinds func and method
// in the JSON), receivers are made by the constructor and the methods that
// change them, the panics found are reported with their inputs (a runtime
// error on an empty stack as a finding; a documented panic and the code's
// own check apart), and the generated regression tests pass
// under plain go test and assert the results the functions returned and
// the state pointer receivers were left in.
func TestAutomaticTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "auto")), "-json", "-max-len", "3", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (panics found)\n%s\n%s", code, stdout, stderr)
	}
	type result struct {
		Target   string `json:"target"`
		Kind     string `json:"kind"`
		Failures []struct {
			Input      string `json:"input"`
			Documented bool   `json:"documented"`
		} `json:"failures"`
	}
	var got []result
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var s result
		if dec.Decode(&s) != nil {
			break
		}
		got = append(got, s)
	}
	want := []struct{ target, kind, failure string }{
		{"New", "func", ""},
		{"Stack.Push", "method", ""}, // receivers come from New: never nil
		{"Stack.Pop", "method", ""},
		{"Stack.Len", "method", ""},
		{"Clamp", "func", "lo="},          // a deliberate panic (the code's own check)
		{"MustNew", "func", "max="},       // documented: not a finding
		{"Stack.Top", "method", "s.New("}, // index out of range on an empty stack: a finding
	}
	if len(got) != len(want) {
		t.Fatalf("%d targets, want %d\n%s", len(got), len(want), stdout)
	}
	for i, w := range want {
		g := got[i]
		found := len(g.Failures) == 1 && strings.Contains(g.Failures[0].Input, w.failure)
		if w.failure == "" {
			found = len(g.Failures) == 0
		}
		if g.Target != w.target || g.Kind != w.kind || !found {
			t.Errorf("target %d: %s (%s) with failures %+v; want %s (%s) failing on %q", i, g.Target, g.Kind, g.Failures, w.target, w.kind, w.failure)
		}
		if documented := len(g.Failures) > 0 && g.Failures[0].Documented; documented != (g.Target == "MustNew" || g.Target == "Clamp") {
			t.Errorf("%s: failure documented %v; only MustNew's and Clamp's panics are", g.Target, documented)
		}
	}
	gen, err := os.ReadFile(filepath.Join(dir, "stack", "stack_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, assert := range []string{
		"got, err := New(tt.max)", "err := tt.s.Push(tt.x)", `wantErr: "stack: full"`, `wantErr: "stack: empty"`,
		"got := Clamp(tt.x, tt.lo, tt.hi)",
		"if !reflect.DeepEqual(tt.s, tt.wantS) {", // the receiver's state after Push and Pop
		"items: []int{}",                          // emptied by Pop: not nil
		"built, err := New(",                      // receivers made by the constructor
		"built.Push(",                             // and the methods that change them
	} {
		if !strings.Contains(string(gen), assert) {
			t.Errorf("the generated file has no %q\n%s", assert, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// TestMapValuesOfAnyShape explores maps whose values are pointers,
// structs and slices. Pointees keep their shadows, so the failure behind
// a pointer value is found and the search is exhaustive; the fields of a
// struct value and the length of a slice value do not survive the map's
// copy, which must make those verdicts not exhaustive (never a wrong
// "exhaustive"). The generated file must compile and pass.
func TestMapValuesOfAnyShape(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/maps\n\ngo 1.22\n",
		"maps.go": `// Package maps holds shapes.
package maps

// Point is a point.
type Point struct{ X, Y int }

// Node is a list node.
type Node struct {
	Val  int
	Next *Node
}
`,
		"maps_test.go": `package maps

import "testing"

func PutNodes(t *testing.T, m map[int]*Node) {
	if n := m[3]; n != nil && n.Val == 9 {
		t.Fatal("nine")
	}
}

func PutPoints(t *testing.T, m map[string]Point) {
	if p, ok := m["a"]; ok && p.X == 7 {
		t.Fatal("seven")
	}
}

func PutLists(t *testing.T, m map[string][]int) {
	if xs := m["k"]; len(xs) == 2 {
		t.Fatal("two")
	}
}
`,
	}
	_, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "2", "-max-time", "20s", ".")
	got := summaries(t, stdout)
	if len(got) != 3 {
		t.Fatalf("%d summaries, want 3\n%s\n%s", len(got), stdout, stderr)
	}
	if s := got["PutNodes"]; !s.Exhaustive || len(s.Failures) == 0 {
		t.Errorf("PutNodes: exhaustive %v, %d failures; want exhaustive, some\n%s", s.Exhaustive, len(s.Failures), stdout)
	}
	for _, name := range []string{"PutPoints", "PutLists"} {
		if s := got[name]; s.Exhaustive {
			t.Errorf("%s: reported exhaustive although the map's copy of its values loses their shadows\n%s", name, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestFloatInputs explores a PUT, an automatic target and a fuzz target
// with float parameters. Float inputs have shadows and their branches are
// solved exactly, so each target is explored exhaustively; rows and
// corpus files must hold them exactly (NaN, the infinities and -0
// included), and a row whose result is NaN must not be compared
// (NaN != NaN), so that the generated tests pass.
func TestFloatInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/floats\n\ngo 1.22\n",
		"ratio.go": `// Package ratio divides.
package ratio

import "math"

// Ratio returns a/b, NaN when b is 0.
func Ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// Celsius is a temperature.
type Celsius float32

// Freezing reports whether c is at or below freezing.
func Freezing(c Celsius) bool { return c <= 0 }
`,
		"ratio_test.go": `package ratio

import "testing"

func PutRatio(t *testing.T, a, b float64) {
	if r := Ratio(a, b); r > 1e300 {
		t.Skip("huge")
	}
}

func FuzzFreezing(f *testing.F) {
	f.Add(float32(1.5))
	f.Fuzz(func(t *testing.T, c float32) {
		if Freezing(Celsius(c)) && c > 0 {
			t.Fatal("positive and freezing")
		}
	})
}
`,
	}
	_, stdout, stderr, dir := runGenIn(t, files, "-json", "-auto", "-max-len", "2", "-max-time", "5s", ".")
	got := summaries(t, stdout)
	for _, name := range []string{"PutRatio", "FuzzFreezing", "Ratio", "Freezing"} {
		s, ok := got[name]
		if !ok {
			t.Errorf("no summary for %s\n%s\n%s", name, stdout, stderr)
			continue
		}
		if !s.Exhaustive {
			t.Errorf("%s not exhaustive; its float branches are all solvable", name)
		}
		if len(s.Failures) != 0 {
			t.Errorf("%s: %d failures, want none", name, len(s.Failures))
		}
	}
	tree := readTree(t, dir)
	if auto := tree["ratio_dowse_auto_test.go"]; !strings.Contains(auto, "a: 2.5, b: 3.5, want: 0.7142857142857143") {
		t.Errorf("the automatic tests have no row with the distinct inputs a=2.5, b=3.5:\n%s", auto)
	}
	corpus := false
	for name, content := range tree {
		if strings.HasPrefix(name, "testdata/fuzz/FuzzFreezing/") && strings.Contains(content, "\nfloat32(") {
			corpus = true
		}
	}
	if !corpus {
		t.Errorf("no corpus file with a float32 argument for FuzzFreezing")
	}
	generatedTestsPass(t, dir)
}
