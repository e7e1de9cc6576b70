package main

import (
	"slices"
	"testing"
)

// This file runs dowse gen on code that calls the models of the bytes,
// strings.Builder and slices packages, and on maps (rt's shadow tables).

// TestBytesModels explores PUTs whose failures hide behind calls of the
// bytes models on an input slice (and of strings.Repeat with a symbolic
// count, and of the unicode/utf8 functions of byte slices): every failing
// input must be found, and
// the targets whose models are exact explored exhaustively. The models of
// TrimSpace, Fields, ToLower/ToUpper (ASCII text: Unicode spaces and case
// mappings are not modelled), the utf8 functions (ASCII text) and
// EqualFold (ASCII folding) record a
// concretization once the search tries bytes that are not ASCII, so their
// targets must not be reported exhaustive.
func TestBytesModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/bytesmodels\n\ngo 1.22\n",
		"bytes_test.go": `package bytesmodels

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func PutFields(t *testing.T, b []byte) {
	f := bytes.Fields(b)
	if len(f) == 2 && len(f[0]) == 1 && f[0][0] == 'g' && len(f[1]) == 2 {
		t.Fatal("g xy")
	}
}

func PutTrimSpace(t *testing.T, b []byte) {
	r := bytes.TrimSpace(b)
	if len(r) == 2 && r[0] == 'a' && len(b) == 4 {
		t.Fatal("a? in four")
	}
}

func PutTrim(t *testing.T, b []byte) {
	if r := bytes.Trim(b, "-"); len(r) == 1 && r[0] == 'x' && len(b) == 3 {
		t.Fatal("-x-")
	}
	if r := bytes.TrimLeft(b, "0"); len(r) == 1 && r[0] == '7' && len(b) == 2 {
		t.Fatal("07")
	}
	if r := bytes.TrimRight(b, "."); len(r) == 2 && r[1] == 'z' && len(b) == 4 {
		t.Fatal("?z..")
	}
}

func PutCut(t *testing.T, b []byte) {
	k, v, ok := bytes.Cut(b, []byte("="))
	if ok && len(k) == 1 && k[0] == 'a' && len(v) == 2 && v[1] == 'z' {
		t.Fatal("a=?z")
	}
}

func PutSplit(t *testing.T, b []byte) {
	p := bytes.Split(b, []byte(","))
	if len(p) == 3 && len(p[1]) == 1 && p[1][0] == 'x' {
		t.Fatal("?,x,?")
	}
}

func PutSplitN(t *testing.T, b []byte) {
	p := bytes.SplitN(b, []byte(":"), 2)
	if len(p) == 2 && len(p[1]) == 2 && p[1][0] == ':' {
		t.Fatal("?::?")
	}
}

func PutSearch(t *testing.T, b []byte) {
	if bytes.Index(b, []byte("ab")) == 1 && bytes.ContainsAny(b, "!?") && bytes.IndexAny(b, "!?") == 0 && bytes.Contains(b, []byte("b")) {
		t.Fatal("!ab")
	}
}

func PutAffix(t *testing.T, b []byte) {
	if r := bytes.TrimPrefix(b, []byte("v")); len(r) == 2 && r[0] == '1' && len(b) == 3 {
		t.Fatal("v1?")
	}
	if r := bytes.TrimSuffix(b, []byte(".go")); len(r) == 1 && r[0] == 'm' && len(b) == 4 {
		t.Fatal("m.go")
	}
}

func PutCase(t *testing.T, b []byte) {
	if l := bytes.ToLower(b); len(l) == 2 && l[0] == 'o' && l[1] == 'k' && b[0] == 'O' {
		t.Fatal("Ok-like")
	}
	if u := bytes.ToUpper(b); len(u) == 1 && u[0] == 'Q' {
		t.Fatal("q")
	}
}

func PutUTF8(t *testing.T, b []byte) {
	if !utf8.Valid(b) || utf8.RuneCount(b) != 2 {
		return
	}
	if r, n := utf8.DecodeRune(b); n == 1 && r == 'x' {
		if r, _ := utf8.DecodeLastRune(b); r == 'y' {
			t.Fatal("xy")
		}
	}
}

func PutUTF8Last(t *testing.T, s string) {
	if r, n := utf8.DecodeLastRuneInString(s); n == 1 && r == '!' && len(s) == 3 {
		t.Fatal("??!")
	}
}

func PutRepeat(t *testing.T, s string, n int) {
	if n < 0 || n > 4 {
		return
	}
	if r := strings.Repeat(s, n); len(r) == 6 && r[1] == 'x' && n == 3 {
		t.Fatal("?x three times")
	}
}

func PutFold(t *testing.T, b []byte) {
	if bytes.EqualFold(b, []byte("get")) && b[0] == 'G' && b[2] == 't' {
		t.Fatal("method")
	}
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "4", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	want := map[string]int{"PutFields": 1, "PutTrimSpace": 1, "PutTrim": 3, "PutCut": 1, "PutSplit": 1, "PutSplitN": 1, "PutSearch": 1, "PutAffix": 2, "PutCase": 2, "PutFold": 1, "PutRepeat": 1, "PutUTF8": 1, "PutUTF8Last": 1}
	for name, n := range want {
		r := got[name]
		if len(r.Failures) != n {
			t.Errorf("%s: %d failures, want %d\n%s", name, len(r.Failures), n, stdout)
		}
		if exact := !slices.Contains([]string{"PutFold", "PutTrimSpace", "PutFields", "PutCase", "PutUTF8", "PutUTF8Last"}, name); r.Exhaustive != exact {
			t.Errorf("%s: exhaustive %v, want %v\n%s", name, r.Exhaustive, exact, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestBuilderModel explores PUTs that build strings with strings.Builder
// (a local value, whose pointer methods the instrumenter calls with &b,
// and a pointer) from input strings, bytes and runes: every failure must
// be found, and the targets that write no rune explored exhaustively
// (a rune that is not ASCII is a concretization).
func TestBuilderModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/buildermodel\n\ngo 1.22\n",
		"builder_test.go": `package buildermodel

import (
	"strings"
	"testing"
)

func PutBuilder(t *testing.T, s string, c byte) {
	var b strings.Builder
	b.Grow(8)
	b.WriteString("<")
	b.WriteString(s)
	b.WriteByte(c)
	if b.Len() == 4 && b.String() == "<ab>" {
		t.Fatal("<ab>")
	}
}

func PutBuilderPtr(t *testing.T, s string) {
	sb := &strings.Builder{}
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			sb.WriteByte(s[i])
		}
	}
	if sb.String() == "xy" && len(s) == 3 {
		t.Fatal("xy and a space")
	}
	sb.Reset()
	sb.WriteString(s)
	if sb.Len() == 1 && sb.String()[0] == 'q' {
		t.Fatal("q")
	}
}

func PutBuilderRune(t *testing.T, r rune, n int) {
	if n < 0 || n > 3 {
		return
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteRune(r)
	b.WriteString(strings.Repeat("-", n))
	if b.String() == "z--" {
		t.Fatal("z--")
	}
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "4", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"PutBuilder", "PutBuilderPtr", "PutBuilderRune"} {
		r := got[name]
		if len(r.Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
		if exact := name != "PutBuilderRune"; r.Exhaustive != exact {
			t.Errorf("%s: exhaustive %v, want %v\n%s", name, r.Exhaustive, exact, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestSlicesModels explores PUTs that use package slices on inputs and on
// slices built from them: every failing input must be found and, since the
// models are exact (an input's longer elements are leaves; a built slice's
// length is chosen), every target explored exhaustively.
func TestSlicesModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/slicesmodels\n\ngo 1.22\n",
		"slices_test.go": `package slicesmodels

import (
	"slices"
	"testing"
)

func PutContains(t *testing.T, keys []int, x int) {
	if slices.Contains(keys, x) && x == 7 && len(keys) == 3 {
		t.Fatal("seven among three")
	}
}

func PutIndex(t *testing.T, xs []int) {
	if slices.Index(xs, 5) == 2 {
		t.Fatal("five third")
	}
}

func PutCloneDelete(t *testing.T, xs []int, i int) {
	ys := slices.Clone(xs)
	if i < 0 || i >= len(ys) {
		return
	}
	ys = slices.Delete(ys, i, i+1)
	if len(ys) == 2 && ys[1] == 9 && xs[0] == 9 {
		t.Fatal("nine kept")
	}
}

func PutEqualBuilt(t *testing.T, xs []int) {
	var ys []int
	for _, x := range xs {
		if x > 0 {
			ys = append(ys, x)
		}
	}
	if slices.Equal(ys, []int{4, 2}) {
		t.Fatal("four, two")
	}
}

func PutContainsString(t *testing.T, names []string) {
	if slices.Contains(names, "go") && len(names) == 2 {
		t.Fatal("go among two")
	}
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "4", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"PutContains", "PutIndex", "PutCloneDelete", "PutEqualBuilt", "PutContainsString"} {
		if len(got[name].Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
		if !got[name].Exhaustive {
			t.Errorf("%s: not exhaustive; the slices models are exact\n%s", name, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestMapModel explores PUTs whose paths depend on which keys of a map
// collide: lengths after stores, deletes, reads of stored symbolic values,
// counting, ranging (keys and values keep their shadows; the order is the
// store order, so runs are deterministic; an entry deleted during the loop
// is not visited), maps as inputs (PUT parameters; an automatic target's
// parameter and result). Before the map model each was reported
// exhaustive with its failing input missed (or found only by the first
// input's luck); now each failure must be found and the target explored
// exhaustively.
func TestMapModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/mapmodel\n\ngo 1.22\n",
		"maps_test.go": `package mapmodel

import "testing"

func PutLen(t *testing.T, a, b int) {
	m := map[int]bool{}
	m[a] = true
	m[b] = true
	if len(m) == 1 && a == 3 {
		t.Fatal("one key")
	}
}

func PutDelete(t *testing.T, a, b int) {
	m := map[int]bool{a: true}
	delete(m, b)
	if len(m) == 0 && b == 4 {
		t.Fatal("deleted")
	}
}

func PutLookup(t *testing.T, k int) {
	m := map[int]string{3: "x", 7: "y"}
	if m[k] == "y" {
		t.Fatal("seven")
	}
}

func PutStoredValue(t *testing.T, k string, v int) {
	m := map[string]int{}
	m[k] = v
	m["fix"] += 2
	if got, ok := m["key"]; ok && got == 40 {
		t.Fatal("forty under key")
	}
	if m["fix"] == 9 {
		t.Fatal("fix is nine")
	}
}

func PutCount(t *testing.T, xs [3]int) {
	count := map[int]int{}
	for _, x := range xs {
		count[x]++
	}
	if count[xs[0]] == 3 {
		t.Fatal("all equal")
	}
}

func PutRange(t *testing.T, a, b int) {
	m := map[int]int{1: a, 2: b}
	sum := 0
	for _, v := range m {
		sum += v
	}
	if sum == 10 {
		t.Fatal("ten")
	}
}

func PutInput(t *testing.T, m map[string]int, k string) {
	if m[k] == 5 && len(m) == 2 {
		t.Fatal("five among two")
	}
}

func PutSumValues(t *testing.T, m map[int]int) {
	s := 0
	for _, v := range m {
		s += v
	}
	if s == 9 && len(m) == 3 {
		t.Fatal("nine in three")
	}
}

type pt struct{ X int }

func mkpt(x int) pt { return pt{X: x} }

func PutStructValue(t *testing.T, x int) {
	m := map[string]pt{}
	m["a"] = mkpt(x)
	if m["a"].X == 7 {
		t.Fatal("seven")
	}
}

func PutRangeKeys(t *testing.T, a, b string) {
	m := map[string]bool{a: true, b: true, "z": true}
	n := 0
	for k := range m {
		if k == "go" {
			n++
		}
		delete(m, "z")
	}
	if n == 1 && len(m) == 2 {
		t.Fatal("go, once, and two left")
	}
}
`,
	}
	files["invert.go"] = `package mapmodel

// Invert maps each value of m to a key that has it.
func Invert(m map[int]int) map[int]int {
	r := map[int]int{}
	for k, v := range m {
		r[v] = k
	}
	return r
}
`
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-auto", "-max-len", "3", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	if s := got["PutStructValue"]; s.Exhaustive && len(s.Failures) == 0 {
		t.Errorf("PutStructValue: exhaustive with its failure missed; a struct stored in a map keeps no shadows")
	}
	if s, ok := got["Invert"]; !ok || !s.Exhaustive {
		t.Errorf("Invert (a map parameter and result): explored %v, exhaustive %v", ok, s.Exhaustive)
	}
	for _, name := range []string{"PutLen", "PutDelete", "PutLookup", "PutStoredValue", "PutCount", "PutRange", "PutRangeKeys", "PutInput", "PutSumValues"} {
		if len(got[name].Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
		if !got[name].Exhaustive {
			t.Errorf("%s: not exhaustive; the map model is exact here\n%s", name, stdout)
		}
	}
	if got["PutStoredValue"].Failures != nil && len(got["PutStoredValue"].Failures) != 2 {
		t.Errorf("PutStoredValue: %d failures, want 2 (forty under key; fix is nine)", len(got["PutStoredValue"].Failures))
	}
	generatedTestsPass(t, dir)
}
