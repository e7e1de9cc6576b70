package main

import (
	"strings"
	"testing"
)

// A method of an unexported type that an exported constructor returns
// (NewLexer(s) *lexer) is a target: its receiver is built by the
// constructor and its calls, the panic behind a backslash at the end of
// the input is found, and the rows are written through NewLexer.
func TestGeneralConstructorPath(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "ctor"), "-cache=false", "-max-time", "15s", "-json", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s%s", code, exitFindings, stdout, stderr)
	}
	type result struct {
		Findings []struct {
			PanicAt string `json:"panic_at"`
			Input   string
		}
	}
	next, ok := targetResults[result](t, stdout)["lexer.Next"]
	if !ok {
		t.Fatalf("lexer.Next is not a target:\n%s", stdout)
	}
	// The input ends with the backslash.
	if len(next.Findings) != 1 || next.Findings[0].PanicAt != "lex.go:60" || !strings.Contains(next.Findings[0].Input, `\\", `) {
		t.Errorf("lexer.Next findings = %+v, want the panic at lex.go:60 on a source ending with a backslash", next.Findings)
	}
	file := readTree(t, dir)["lex_dowse_auto_test.go"]
	if !strings.Contains(file, "func TestDowseLexer_Next(") || !strings.Contains(file, "built := NewLexer(") {
		t.Errorf("no rows of lexer.Next built through NewLexer:\n%s", file)
	}
	generatedTestsPass(t, dir)
}
