package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// partsRE matches the literals of a []interface{} field named parts.
var partsRE = regexp.MustCompile(`parts: +\[\]interface\{\}\{.*`)

// inputSummary is the part of a JSON summary these tests read.
type inputSummary struct {
	Target     string         `json:"target"`
	Error      string         `json:"error"`
	Paths      int            `json:"paths"`
	Tests      int            `json:"tests"`
	Failures   []failureInput `json:"failures"`
	Incomplete []string       `json:"incomplete"`
	Exhaustive bool           `json:"exhaustive"`
}

// failureInput is a failure's input, as the JSON summary writes it.
type failureInput struct {
	Input string `json:"input"`
}

// Variadic functions are explored: the variadic parameter is a slice
// input, and the rows call the function with it spread.
func TestGeneralVariadic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "variadic"), "-json", "-max-time", "20s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (the planted failure)\nstdout:\n%s\nstderr:\n%s", code, exitFindings, stdout, stderr)
	}
	got := targetResults[inputSummary](t, stdout)
	for _, target := range []string{"Sum", "Mean"} {
		s, ok := got[target]
		if !ok || s.Error != "" || s.Paths == 0 {
			t.Fatalf("%s: not explored (%+v)\n%s", target, s, stderr)
		}
		// The planted failure: three readings, the first two making 100
		// and the last 7.
		if len(s.Failures) != 1 || !strings.Contains(s.Failures[0].Input, "len(xs)=3") || !strings.Contains(s.Failures[0].Input, "xs[2]=7") {
			t.Errorf("%s: failures %+v, want the one at three readings ending in 7", target, s.Failures)
		}
	}
	gen := readTree(t, dir)["stats_dowse_auto_test.go"]
	for _, want := range []string{"Sum(tt.xs...)", "Mean(tt.scale, tt.xs...)", "xs: []int{"} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated tests lack %q:\n%s", want, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// Elements of interface type (a variadic ...interface{}, a
// map[string]any) get a dynamic type each, chosen like a branch: the
// rows hold integers, strings, booleans and nil, written as Go literals.
func TestGeneralInterfaceElements(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "join"), "-json", "-max-len", "4", "-max-time", "20s", "./...")
	// The nil part's panic is deliberate (its message says so): listed,
	// not a finding.
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
	}
	got := targetResults[inputSummary](t, stdout)
	for _, target := range []string{"Join", "Fields"} {
		if s, ok := got[target]; !ok || s.Error != "" || s.Paths == 0 {
			t.Fatalf("%s: not explored (%+v)\n%s", target, s, stderr)
		}
	}
	// A nil element reaches the panic.
	if f := got["Join"].Failures; len(f) != 1 || !strings.Contains(f[0].Input, "parts[0].(type)=0") {
		t.Errorf("Join: failures %+v, want the nil part", f)
	}
	gen := readTree(t, dir)["join_dowse_auto_test.go"]
	for _, want := range []string{"Join(tt.sep, tt.parts...)", "record: map[string]any{"} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated tests lack %s:\n%s", want, gen)
		}
	}
	// Every case of the type switch has its element in some row.
	all := strings.Join(partsRE.FindAllString(gen, -1), "\n")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`\btrue\b`),
		regexp.MustCompile(`\bfalse\b`),
		regexp.MustCompile(`[{ ]""[,}]`),
		regexp.MustCompile(`[{ ]-[0-9]`),
		regexp.MustCompile(`\{nil\}`),
	} {
		if !want.MatchString(all) {
			t.Errorf("no row's parts match %s:\n%s", want, all)
		}
	}
	generatedTestsPass(t, dir)
}

// A decoder's entry point, whose destination (an any the code asserts
// to *Config) nests slices of structs of slices and maps, is explored at
// the default -max-len although its full layout exceeds rt.MaxLeaves:
// collections inside others get fewer slots, and the verdict says so.
func TestGeneralDecoderEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "decode"), "-json", "-max-time", "20s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (the port limit)\nstdout:\n%s\nstderr:\n%s", code, exitFindings, stdout, stderr)
	}
	got := targetResults[inputSummary](t, stdout)
	for _, target := range []string{"Decode", "Ports"} {
		s, ok := got[target]
		if !ok || s.Error != "" || s.Paths == 0 {
			t.Fatalf("%s: not explored (%+v)\n%s", target, s, stderr)
		}
		if s.Exhaustive || !slices.Contains(s.Incomplete, "cut-inputs") {
			t.Errorf("%s: exhaustive %v, incomplete %v: want cut-inputs among the reasons", target, s.Exhaustive, s.Incomplete)
		}
	}
	// The planted failure needs a server's limits, three collections
	// deep: a "ports" limit above its number of ports.
	if f := got["Ports"].Failures; !slices.ContainsFunc(f, func(f failureInput) bool {
		return strings.Contains(f.Input, `Servers[0].Limits[0].Key="ports"`)
	}) {
		t.Errorf("Ports: failures %+v, want one over a server's port limit", f)
	}
	gen := readTree(t, dir)["config_dowse_auto_test.go"]
	for _, want := range []string{"Decode(tt.data, tt.v)", "v: &Config{", "Servers: []Server{", `"config: destination must be a non-nil *Config"`} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated tests lack %s:\n%s", want, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// Variadic constructors and methods build values too: a *Bag is made by
// New(words...) and Add(words...) calls, written with the words spread.
func TestGeneralVariadicBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "bag"), "-json", "-max-len", "3", "-max-time", "20s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitOK, stdout, stderr)
	}
	got := targetResults[inputSummary](t, stdout)
	for _, target := range []string{"New", "Bag.Add", "Bag.Count", "Bag.Top"} {
		if s, ok := got[target]; !ok || s.Error != "" || s.Paths == 0 {
			t.Fatalf("%s: not explored (%+v)\n%s", target, s, stderr)
		}
	}
	gen := readTree(t, dir)["bag_dowse_auto_test.go"]
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`built := New\("[a-z]*"`),
		regexp.MustCompile(`built\.Add\("[a-z]*"`),
	} {
		if !want.MatchString(gen) {
			t.Errorf("generated tests lack %s:\n%s", want, gen)
		}
	}
	generatedTestsPass(t, dir)
}
