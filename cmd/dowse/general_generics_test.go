package main

import (
	"strings"
	"testing"
)

// Generic functions and methods of generic types are automatic targets,
// explored on one instantiation (int here: the package instantiates
// none of them); the planted slice panic of Window is found, values of
// type-parameter types are recorded as concretized (no false
// exhaustive), and the rows call Clamp[int] and Stack[int].
func TestGeneralGenerics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "generics"), "-cache=false", "-max-time", "10s", "-json", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s%s", code, exitFindings, stdout, stderr)
	}
	type result struct {
		Error      string
		Exhaustive bool
		Findings   []struct {
			PanicAt string `json:"panic_at"`
		}
	}
	got := targetResults[result](t, stdout)
	for _, name := range []string{"Clamp", "IndexOf", "Stack.Push", "Stack.Pop", "Window"} {
		r, ok := got[name]
		if !ok || r.Error != "" {
			t.Errorf("%s: not explored (%q)", name, r.Error)
		}
	}
	if got["Clamp"].Exhaustive {
		t.Errorf("Clamp called exhaustive, though its inputs of type T are concrete")
	}
	if w := got["Window"]; len(w.Findings) != 1 || w.Findings[0].PanicAt != "gen.go:67" {
		t.Errorf("Window findings = %+v, want the panic at gen.go:67", w.Findings)
	}
	file := readTree(t, dir)["gen_dowse_auto_test.go"]
	for _, want := range []string{"Clamp[int](tt.v, tt.lo, tt.hi)", "*Stack[int]"} {
		if !strings.Contains(file, want) {
			t.Errorf("generated file lacks %q:\n%s", want, file)
		}
	}
	generatedTestsPass(t, dir)
}
