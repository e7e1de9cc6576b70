package main

import "testing"

// This file runs dowse gen on code that calls the models of the strings,
// strconv, regexp and unicode/utf8 packages (rt's models.go, strconv.go).

// TestStdlibModels checks that branches on bytes.HasPrefix,
// strings.HasSuffix and strings.IndexByte (modelled, not instrumented) are
// solved: PutRoute fails only for a path like "/api/x.json", PutField only
// for "id:42".
func TestStdlibModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/route\n\ngo 1.22\n",
		"route.go": `package route

import (
	"bytes"
	"strings"
)

// Route classifies a request path.
func Route(path string) int {
	if !bytes.HasPrefix([]byte(path), []byte("/api/")) {
		return 0
	}
	if strings.HasSuffix(path, ".json") {
		return 2
	}
	return 1
}

// Field returns the value of an "id:value" pair.
func Field(s string) string {
	i := strings.IndexByte(s, ':')
	if i < 0 || s[:i] != "id" {
		return ""
	}
	return s[i+1:]
}
`,
		"route_test.go": `package route

import (
	"strings"
	"testing"
)

func PutRoute(t *testing.T, path string) {
	if Route(path) == 2 {
		t.Errorf("JSON API path %q", path)
	}
}

func PutField(t *testing.T, s string) {
	if Field(s) == "42" {
		t.Errorf("id 42 in %q", s)
	}
}

// The call sits on the right of ||: it is evaluated after the left
// operand, and only if that is false.
func PutTag(t *testing.T, s string) {
	if len(s) < 2 || !strings.HasPrefix(s, "v") || s[1] != '9' {
		return
	}
	t.Errorf("tag %q", s)
}
`,
	}
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "12", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (the JSON path found)\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	if s := got["PutRoute"]; len(s.Failures) != 1 || s.Paths != 3 {
		t.Errorf("PutRoute: %d failures, %d paths; want 1 failure over 3 paths\n%s", len(s.Failures), s.Paths, stdout)
	}
	if s := got["PutTag"]; len(s.Failures) != 1 {
		t.Errorf("PutTag: %d failures; want the input \"v9\" found behind ||\n%s", len(s.Failures), stdout)
	}
	if s := got["PutField"]; len(s.Failures) != 1 {
		t.Errorf("PutField: %d failures; want the input \"id:42\" found\n%s", len(s.Failures), stdout)
	}
}

// TestSearchModels checks branches behind strings.LastIndexByte,
// strings.ContainsRune, strings.EqualFold and strconv.Atoi ("-42": a
// number with a sign, found although err != nil is not tracked, through
// the model's implicit validity branch): each PUT fails only on
// inputs the model's shadow leads to; EqualFold (modelled for ASCII only)
// must not make its target exhaustive.
func TestSearchModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/search\n\ngo 1.22\n",
		"search_test.go": `package search

import (
	"strconv"
	"strings"
	"regexp"
	"testing"
	"unicode"
	"unicode/utf8"
)

func PutExt(t *testing.T, s string) {
	if i := strings.LastIndexByte(s, '.'); i > 0 && s[i+1:] == "go" {
		t.Fatalf("Go file %q", s)
	}
}

func PutColon(t *testing.T, s string) {
	if strings.ContainsRune(s, ':') && len(s) == 3 && s[0] == 'x' {
		t.Fatalf("x with a colon: %q", s)
	}
}

func PutMethod(t *testing.T, s string) {
	if strings.EqualFold(s, "get") && s[0] == 'G' && s[2] == 't' {
		t.Fatalf("method %q", s)
	}
}

func PutAtoi(t *testing.T, s string) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return
	}
	if n == -42 {
		t.Fatal("minus forty-two")
	}
}

func PutCut(t *testing.T, s string) {
	k, v, ok := strings.Cut(s, "=")
	if ok && k == "ab" && v == "x" {
		t.Fatal("ab=x")
	}
}

func PutTrim(t *testing.T, s, p string) {
	if strings.TrimPrefix(s, "v") == "12" {
		t.Fatal("v12")
	}
	if strings.TrimSuffix(s, p) == "ab" && len(p) == 2 {
		t.Fatal("ab + two")
	}
	if rest, ok := strings.CutPrefix(s, "go"); ok && rest == "!" {
		t.Fatal("go!")
	}
	if rest, ok := strings.CutSuffix(s, ".go"); ok && rest == "m" {
		t.Fatal("m.go")
	}
}

func PutCase(t *testing.T, s string) {
	if strings.ToLower(s) == "get" && s[0] == 'G' && s[2] == 't' {
		t.Fatal("Get-like")
	}
	if strings.ToUpper(s) == "OK" && s[1] == 'k' {
		t.Fatal("Ok-like")
	}
}

func PutSplit(t *testing.T, s string) {
	parts := strings.Split(s, ".")
	if len(parts) == 3 && parts[1] == "ab" && len(parts[2]) == 1 {
		t.Fatal("x.ab.y")
	}
}

func PutSplitN(t *testing.T, s string) {
	kv := strings.SplitN(s, "=", 2)
	if len(kv) == 2 && kv[0] == "k" && kv[1] == "v=" {
		t.Fatal("k=v=")
	}
}

func PutUTF8(t *testing.T, s string) {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) != 3 {
		return
	}
	if r, n := utf8.DecodeRuneInString(s); n == 1 && r == 'x' && s[2] == 'y' {
		t.Fatal("x?y")
	}
}

func PutTrimFunc(t *testing.T, s string) {
	digit := func(r rune) bool { return r >= '0' && r <= '9' }
	core := strings.TrimFunc(s, digit)
	if core == "ab" && len(s) == 4 && !strings.ContainsFunc(s, unicode.IsSpace) && strings.LastIndexFunc(s, digit) == 3 {
		t.Fatal("ab between digits, a digit last")
	}
}

func PutAny(t *testing.T, s string) {
	sep := strings.LastIndexAny(s, "0123456789. ")
	if sep < 0 || sep != len(s)-3 || strings.IndexAny(s, ". ") != 1 {
		return
	}
	if s[sep+1:] == "kb" {
		t.Fatal("?.?kb")
	}
}

var versionRE = regexp.MustCompile("^v?([0-9]+)\\.([0-9]+)(-([a-z]+))?$")

func PutRegexp(t *testing.T, s string) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil || !versionRE.MatchString(s) {
		return
	}
	if m[1] == "1" && m[4] == "rc" {
		t.Fatal("1.x-rc")
	}
}

func PutTrimReplace(t *testing.T, s string) {
	v := strings.TrimLeft(strings.TrimSpace(s), "0")
	if strings.ReplaceAll(v, " ", "") == "7x" && len(v) == 3 {
		t.Fatal("7 x")
	}
}

func PutItoa(t *testing.T, n int) {
	if strconv.Itoa(n) == "-407" {
		t.Fatal("-407")
	}
}

func PutFields(t *testing.T, s string) {
	f := strings.Fields(s)
	if len(f) == 2 && f[0] == "go" && len(f[1]) == 2 {
		t.Fatal("go xy")
	}
}

var hexValue [256]byte

func init() {
	for i := range hexValue {
		hexValue[i] = 255
	}
	for i, c := range "0123456789abcdef" {
		hexValue[c] = byte(i)
	}
	for i, c := range "ABCDEF" {
		hexValue[c] = byte(10 + i)
	}
}

func PutHex(t *testing.T, s string) {
	if len(s) != 2 {
		return
	}
	hi, lo := hexValue[s[0]], hexValue[s[1]]
	if hi == 255 || lo == 255 {
		return
	}
	if hi<<4|lo == 0xa7 {
		t.Fatal("0xa7")
	}
}

func PutLex(t *testing.T, s string) {
	kinds := ""
	for _, r := range s {
		if unicode.IsDigit(r) {
			kinds += "d"
		} else if unicode.IsUpper(r) {
			kinds += "U"
		} else if unicode.IsLetter(r) {
			kinds += "l"
		} else if unicode.IsSpace(r) {
			kinds += "_"
		}
	}
	if kinds == "Ud_l" {
		t.Fatal("upper, digit, space, lower")
	}
}

func PutLexSwitch(t *testing.T, s string) {
	kinds := ""
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			kinds += "d"
		case unicode.IsUpper(r):
			kinds += "U"
		case r == '_', unicode.IsLetter(r):
			kinds += "l"
		default:
			kinds += "?"
		}
	}
	if kinds == "Udl" {
		t.Fatal("upper, digit, lower")
	}
}

func PutParse(t *testing.T, s, b string) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return
	}
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return
	}
	if ok, err := strconv.ParseBool(b); err == nil && ok && b[0] == 'T' && n == 7 && u == 7 {
		t.Fatal("seven, and true")
	}
}
`,
	}
	// The lexer PUTs search thousands of paths of character classes for
	// their failure; 60 s was not always enough on a loaded 2-core machine.
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "6", "-max-time", "120s", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"PutExt", "PutColon", "PutMethod", "PutAtoi", "PutParse", "PutCut"} {
		if len(got[name].Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
	}
	if !got["PutExt"].Exhaustive || !got["PutColon"].Exhaustive || !got["PutAtoi"].Exhaustive {
		t.Errorf("PutExt, PutColon, PutAtoi: exhaustive %v, %v, %v; want all exact", got["PutExt"].Exhaustive, got["PutColon"].Exhaustive, got["PutAtoi"].Exhaustive)
	}
	for _, name := range []string{"PutSplit", "PutSplitN", "PutAny"} {
		if r := got[name]; len(r.Failures) != 1 || !r.Exhaustive {
			t.Errorf("%s: %d failures, exhaustive %v; want the one failing shape found, exhaustively", name, len(r.Failures), r.Exhaustive)
		}
	}
	if r := got["PutRegexp"]; len(r.Failures) == 0 {
		t.Errorf("PutRegexp: no failure found; want 1.x-rc through the regexp model")
	}
	if r := got["PutItoa"]; len(r.Failures) != 1 || !r.Exhaustive {
		t.Errorf("PutItoa: %d failures, exhaustive %v; want -407 found through the formatting model, exhaustively", len(r.Failures), r.Exhaustive)
	}
	if r := got["PutTrimReplace"]; len(r.Failures) == 0 {
		t.Errorf("PutTrimReplace: no failure found; want \"7 x\" through TrimSpace, TrimLeft and ReplaceAll")
	}
	if r := got["PutTrimFunc"]; len(r.Failures) == 0 {
		t.Errorf("PutTrimFunc: no failure found; want one through the predicate models")
	}
	if r := got["PutUTF8"]; len(r.Failures) != 1 {
		t.Errorf("PutUTF8: %d failures; want the one failing shape found", len(r.Failures))
	}
	// Fields models ASCII strings only: others are a concretization.
	if r := got["PutFields"]; len(r.Failures) != 1 {
		t.Errorf("PutFields: %d failures; want the one failing shape found", len(r.Failures))
	}
	if h := got["PutHex"]; len(h.Failures) != 1 || !h.Exhaustive {
		t.Errorf("PutHex: %d failures, exhaustive %v; want 0xa7 found through the lookup table, exhaustively", len(h.Failures), h.Exhaustive)
	}
	if len(got["PutLexSwitch"].Failures) == 0 {
		t.Errorf("PutLexSwitch: the failing input was not found (calls in case expressions)\n%s", stdout)
	}
	if len(got["PutLex"].Failures) == 0 {
		t.Errorf("PutLex: the failing input was not found\n%s", stdout)
	}
	if n := len(got["PutCase"].Failures); n != 2 {
		t.Errorf("PutCase: %d failures, want 2 (ToLower, ToUpper)", n)
	}
	if n := len(got["PutTrim"].Failures); n != 4 || !got["PutTrim"].Exhaustive {
		t.Errorf("PutTrim: %d failures, exhaustive %v; want the 4 (TrimPrefix, TrimSuffix, CutPrefix, CutSuffix), exhaustive", n, got["PutTrim"].Exhaustive)
	}
	if got["PutMethod"].Exhaustive {
		t.Errorf("PutMethod reported exhaustive, but EqualFold is modelled for ASCII only")
	}
}
