package rt

import (
	"bytes"
	"math"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestModelsAgree checks that the models return what the standard library
// returns, traced or not.
func TestModelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	word := func() string {
		b := make([]byte, rnd.Intn(5))
		for i := range b {
			b[i] = "ab/"[rnd.Intn(3)]
		}
		return string(b)
	}
	for _, traced := range []bool{false, true} {
		for i := 0; i < 2000; i++ {
			s, p := word(), word()
			if traced {
				begin(t)
				in := mk(Node{Op: OpInput, K: KString})
				Call(0, Arg{S: in, F: FS(s)}, Arg{})
			}
			if got, want := StringsHasPrefix(s, p), strings.HasPrefix(s, p); got != want {
				t.Fatalf("StringsHasPrefix(%q, %q) = %v", s, p, got)
			}
			if got, want := StringsHasSuffix(s, p), strings.HasSuffix(s, p); got != want {
				t.Fatalf("StringsHasSuffix(%q, %q) = %v", s, p, got)
			}
			a, b := []byte(s), []byte(p)
			if got, want := BytesHasPrefix(a, b), bytes.HasPrefix(a, b); got != want {
				t.Fatalf("BytesHasPrefix(%q, %q) = %v", s, p, got)
			}
			if got, want := BytesHasSuffix(a, b), bytes.HasSuffix(a, b); got != want {
				t.Fatalf("BytesHasSuffix(%q, %q) = %v", s, p, got)
			}
			if got, want := BytesEqual(a, b), bytes.Equal(a, b); got != want {
				t.Fatalf("BytesEqual(%q, %q) = %v", s, p, got)
			}
		}
	}
}

// TestModelShadow checks that a model leaves a result shadow for the
// caller when an argument is symbolic, and none otherwise.
func TestModelShadow(t *testing.T) {
	begin(t)
	in := mk(Node{Op: OpInput, K: KString})
	s := "/api/x"
	Call(idStringsHasPrefix, Arg{S: in, F: FS(s)}, Arg{})
	r := StringsHasPrefix(s, "/api/")
	if sh := Res(idStringsHasPrefix, 0, B(r)); sh == 0 || cur.nodes[sh].Op != OpIte {
		t.Fatalf("no if-then-else shadow for HasPrefix of a symbolic string: %v", sh)
	}
	Call(idStringsHasPrefix, Arg{}, Arg{})
	cur.ret = frame{}
	StringsHasPrefix("x", "y")
	if sh := Res(idStringsHasPrefix, 0, B(false)); sh != 0 {
		t.Fatal("a shadow for concrete arguments")
	}
}

func TestSearchModelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	word := func(n int) string {
		b := make([]byte, rnd.Intn(n))
		for i := range b {
			b[i] = "ab:"[rnd.Intn(3)]
		}
		return string(b)
	}
	for _, traced := range []bool{false, true} {
		for i := 0; i < 2000; i++ {
			s, sub := word(8), word(3)
			c := "ab:"[rnd.Intn(3)]
			if traced {
				begin(t)
				in := mk(Node{Op: OpInput, K: KString})
				Call(0, Arg{S: in, F: FS(s)}, Arg{})
			}
			if got, want := StringsIndex(s, sub), strings.Index(s, sub); got != want {
				t.Fatalf("StringsIndex(%q, %q) = %d", s, sub, got)
			}
			if got, want := StringsContains(s, sub), strings.Contains(s, sub); got != want {
				t.Fatalf("StringsContains(%q, %q) = %v", s, sub, got)
			}
			if got, want := StringsIndexByte(s, c), strings.IndexByte(s, c); got != want {
				t.Fatalf("StringsIndexByte(%q, %q) = %d", s, c, got)
			}
			if got, want := BytesIndexByte([]byte(s), c), bytes.IndexByte([]byte(s), c); got != want {
				t.Fatalf("BytesIndexByte(%q, %q) = %d", s, c, got)
			}
			if got, want := StringsCount(s, sub), strings.Count(s, sub); got != want {
				t.Fatalf("StringsCount(%q, %q) = %d", s, sub, got)
			}
			if got, want := BytesCount([]byte(s), []byte{c}), bytes.Count([]byte(s), []byte{c}); got != want {
				t.Fatalf("BytesCount(%q, %q) = %d", s, c, got)
			}
			if got, want := StringsLastIndexByte(s, c), strings.LastIndexByte(s, c); got != want {
				t.Fatalf("StringsLastIndexByte(%q, %q) = %d", s, c, got)
			}
			for _, r := range []rune{rune(c), 'é', -1} {
				if got, want := StringsIndexRune(s, r), strings.IndexRune(s, r); got != want {
					t.Fatalf("StringsIndexRune(%q, %q) = %d", s, r, got)
				}
				if got, want := StringsContainsRune(s, r), strings.ContainsRune(s, r); got != want {
					t.Fatalf("StringsContainsRune(%q, %q) = %v", s, r, got)
				}
			}
			u := strings.ToUpper(sub)
			if rnd.Intn(2) == 0 {
				u = "\u212a" + u // the Kelvin sign folds to k
			}
			for _, o := range []string{u, sub, strings.ToUpper(s), s + "A"} {
				if got, want := StringsEqualFold(s, o), strings.EqualFold(s, o); got != want {
					t.Fatalf("StringsEqualFold(%q, %q) = %v", s, o, got)
				}
			}
		}
	}
}

// TestRuneInSet checks the models of IndexRune and ContainsRune for a
// symbolic rune and a constant string (a rune tested against a set, as
// containsOnly-style helpers do): they leave a shadow, and the shadow
// evaluates to what the strings package returns for every rune tried —
// in the set or not, non-ASCII ones, RuneError (which matches invalid
// UTF-8 too), surrogates, negative runes and runes beyond MaxRune.
func TestRuneInSet(t *testing.T) {
	sets := []string{"", "0123456789", "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-", "aéb\u212a", "x\xffy", "\ufffd", "a\xc3"}
	runes := []rune{-1, 0, '0', '5', '9', 'a', 'z', 'Z', '-', '.', 'é', '\u212a', utf8.RuneError, 0xD800, utf8.MaxRune, utf8.MaxRune + 1, 0x7f, 0x80}
	for _, set := range sets {
		for _, r := range runes {
			begin(t)
			rs := mk(Node{Op: OpInput, K: KInt32})
			in := []Value{{Bits: uint64(uint32(r))}}
			Call(idStringsIndexRune, Arg{}, Arg{S: rs, F: uint64(int64(r))})
			got := StringsIndexRune(set, r)
			if want := strings.IndexRune(set, r); got != want {
				t.Fatalf("StringsIndexRune(%q, %U) = %d, want %d", set, r, got, want)
			}
			sh := Res(idStringsIndexRune, 0, uint64(int64(got)))
			if sh == 0 {
				t.Fatalf("IndexRune(%q, symbolic %U): no shadow", set, r)
			}
			if v, ok := evalShadow(cur.nodes, sh, in); !ok || int64(v.Bits) != int64(got) {
				t.Errorf("IndexRune(%q, %U): the shadow says %d (ok %v), the strings package %d", set, r, int64(v.Bits), ok, got)
			}
			Call(idStringsContainsRune, Arg{}, Arg{S: rs, F: uint64(int64(r))})
			has := StringsContainsRune(set, r)
			if want := strings.ContainsRune(set, r); has != want {
				t.Fatalf("StringsContainsRune(%q, %U) = %v, want %v", set, r, has, want)
			}
			sh = Res(idStringsContainsRune, 0, B(has))
			if sh == 0 {
				t.Fatalf("ContainsRune(%q, symbolic %U): no shadow", set, r)
			}
			if v, ok := evalShadow(cur.nodes, sh, in); !ok || (v.Bits != 0) != has {
				t.Errorf("ContainsRune(%q, %U): the shadow says %v (ok %v), the strings package %v", set, r, v.Bits != 0, ok, has)
			}
			if len(cur.conc) > 0 {
				t.Errorf("%q, %U: concretized: %v", set, r, cur.conc)
			}
		}
	}
}

// TestASCIIClasses checks the ASCII ranges of the unicode class models
// against the unicode package for every ASCII rune.
func TestASCIIClasses(t *testing.T) {
	for _, c := range []struct {
		name   string
		ranges [][2]rune
		is     func(rune) bool
	}{
		{"IsDigit", asciiDigits, unicode.IsDigit},
		{"IsLetter", asciiLetters, unicode.IsLetter},
		{"IsSpace", asciiSpaces, unicode.IsSpace},
		{"IsUpper", asciiUpper, unicode.IsUpper},
		{"IsLower", asciiLower, unicode.IsLower},
	} {
		for r := rune(0); r < utf8RuneSelf; r++ {
			in := false
			for _, rg := range c.ranges {
				in = in || r >= rg[0] && r <= rg[1]
			}
			if in != c.is(r) {
				t.Errorf("%s(%q): ranges say %v, unicode says %v", c.name, r, in, c.is(r))
			}
		}
	}
}

// TestSplitAgrees checks that the Split and Fields models return what the strings
// package returns, traced or not.
func TestSplitAgrees(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for _, traced := range []bool{false, true} {
		for i := 0; i < 2000; i++ {
			b := make([]byte, rnd.Intn(7))
			for k := range b {
				b[k] = "a.="[rnd.Intn(3)]
			}
			s := string(b)
			sep := []string{".", "=", ".=", ""}[rnd.Intn(4)]
			n := rnd.Intn(5) - 1
			if traced {
				begin(t)
				in := mk(Node{Op: OpInput, K: KString})
				Call(0, Arg{S: in, F: FS(s)}, Arg{}, Arg{})
			}
			if got, want := StringsSplitN(s, sep, n), strings.SplitN(s, sep, n); !slices.Equal(got, want) {
				t.Fatalf("StringsSplitN(%q, %q, %d) = %q, want %q", s, sep, n, got, want)
			}
			if traced {
				Call(0, Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(s)}, Arg{})
			}
			if got, want := StringsSplit(s, sep), strings.Split(s, sep); !slices.Equal(got, want) {
				t.Fatalf("StringsSplit(%q, %q) = %q, want %q", s, sep, got, want)
			}
			w := []byte(s)
			for k := range w {
				if rnd.Intn(3) == 0 {
					w[k] = " \t\n\v\x85\xa0\xc2"[rnd.Intn(7)]
				}
			}
			if traced {
				Call(0, Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(string(w))})
			}
			if got, want := StringsFields(string(w)), strings.Fields(string(w)); !slices.Equal(got, want) {
				t.Fatalf("StringsFields(%q) = %q, want %q", w, got, want)
			}
			ws := string(w)
			if traced {
				Call(0, Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(ws)})
			}
			if got, want := UTF8ValidString(ws), utf8.ValidString(ws); got != want {
				t.Fatalf("UTF8ValidString(%q) = %v", ws, got)
			}
			if traced {
				Call(0, Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(ws)})
			}
			if got, want := UTF8RuneCountInString(ws), utf8.RuneCountInString(ws); got != want {
				t.Fatalf("UTF8RuneCountInString(%q) = %v", ws, got)
			}
			if traced {
				Call(0, Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(ws)})
			}
			r, n := UTF8DecodeRuneInString(ws)
			if wr, wn := utf8.DecodeRuneInString(ws); r != wr || n != wn {
				t.Fatalf("UTF8DecodeRuneInString(%q) = %q, %d, want %q, %d", ws, r, n, wr, wn)
			}
		}
	}
}

// TestPredicateModelsAgree checks the models of the strings functions
// that take a rune predicate against the strings package, traced or not,
// with a closure and with unicode class functions as predicates.
func TestPredicateModelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewSource(4))
	digit := func(r rune) bool { return r >= '0' && r <= '9' }
	preds := []func(rune) bool{digit, unicode.IsSpace, unicode.IsLetter}
	for _, traced := range []bool{false, true} {
		for i := 0; i < 3000; i++ {
			b := make([]byte, rnd.Intn(7))
			for k := range b {
				b[k] = "a1 \t\xc3\xa9\xff"[rnd.Intn(7)]
			}
			s := string(b)
			f := preds[rnd.Intn(len(preds))]
			callN := func(n int) {
				if traced {
					begin(t)
					args := make([]Arg, n)
					args[0] = Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(s)}
					Call(0, args...)
				}
			}
			call := func() { callN(2) }
			call()
			if got, want := StringsIndexFunc(s, f), strings.IndexFunc(s, f); got != want {
				t.Fatalf("StringsIndexFunc(%q) = %d, want %d", s, got, want)
			}
			call()
			if got, want := StringsLastIndexFunc(s, f), strings.LastIndexFunc(s, f); got != want {
				t.Fatalf("StringsLastIndexFunc(%q) = %d, want %d", s, got, want)
			}
			call()
			if got, want := StringsContainsFunc(s, f), strings.ContainsFunc(s, f); got != want {
				t.Fatalf("StringsContainsFunc(%q) = %v, want %v", s, got, want)
			}
			call()
			if got, want := StringsTrimLeftFunc(s, f), strings.TrimLeftFunc(s, f); got != want {
				t.Fatalf("StringsTrimLeftFunc(%q) = %q, want %q", s, got, want)
			}
			call()
			if got, want := StringsTrimRightFunc(s, f), strings.TrimRightFunc(s, f); got != want {
				t.Fatalf("StringsTrimRightFunc(%q) = %q, want %q", s, got, want)
			}
			call()
			if got, want := StringsTrimFunc(s, f), strings.TrimFunc(s, f); got != want {
				t.Fatalf("StringsTrimFunc(%q) = %q, want %q", s, got, want)
			}
			callN(1)
			if got, want := StringsTrimSpace(s), strings.TrimSpace(s); got != want {
				t.Fatalf("StringsTrimSpace(%q) = %q, want %q", s, got, want)
			}
			cut := []string{"1 ", "a", "\t", "\xff1", ""}[rnd.Intn(5)]
			for _, c := range []struct {
				name      string
				model, of func(string, string) string
			}{{"Trim", StringsTrim, strings.Trim}, {"TrimLeft", StringsTrimLeft, strings.TrimLeft}, {"TrimRight", StringsTrimRight, strings.TrimRight}} {
				call()
				if got, want := c.model(s, cut), c.of(s, cut); got != want {
					t.Fatalf("Strings%s(%q, %q) = %q, want %q", c.name, s, cut, got, want)
				}
			}
			old, repl := []string{" ", "a", "a1", ""}[rnd.Intn(4)], []string{"", "xy", "1"}[rnd.Intn(3)]
			n := rnd.Intn(4) - 1
			callN(4)
			if got, want := StringsReplace(s, old, repl, n), strings.Replace(s, old, repl, n); got != want {
				t.Fatalf("StringsReplace(%q, %q, %q, %d) = %q, want %q", s, old, repl, n, got, want)
			}
			callN(3)
			if got, want := StringsReplaceAll(s, old, repl), strings.ReplaceAll(s, old, repl); got != want {
				t.Fatalf("StringsReplaceAll(%q, %q, %q) = %q, want %q", s, old, repl, got, want)
			}
			chars := []string{"1 ", "a", "0123456789. ", "\xff", ""}[rnd.Intn(5)]
			call()
			if got, want := StringsIndexAny(s, chars), strings.IndexAny(s, chars); got != want {
				t.Fatalf("StringsIndexAny(%q, %q) = %d, want %d", s, chars, got, want)
			}
			call()
			if got, want := StringsLastIndexAny(s, chars), strings.LastIndexAny(s, chars); got != want {
				t.Fatalf("StringsLastIndexAny(%q, %q) = %d, want %d", s, chars, got, want)
			}
			call()
			if got, want := StringsContainsAny(s, chars), strings.ContainsAny(s, chars); got != want {
				t.Fatalf("StringsContainsAny(%q, %q) = %v, want %v", s, chars, got, want)
			}
		}
	}
}

// TestRegexpModelsAgree checks the regexp models against the regexp
// package, traced (the model's own matcher runs and must agree, or record
// a concretization) or not.
func TestRegexpModelsAgree(t *testing.T) {
	res := []*regexp.Regexp{
		regexp.MustCompile(`^v?([0-9]+)(\.[0-9]+)?(-([a-z]+))?$`),
		regexp.MustCompile(`a+b*`),
		regexp.MustCompile(`(?i)ab|b(a*)`),
		regexp.MustCompile(`\bab`),
		regexp.MustCompile(`x*$`),
		regexp.MustCompilePOSIX(`a|ab`),
	}
	rnd := rand.New(rand.NewSource(5))
	for _, traced := range []bool{false, true} {
		for i := 0; i < 3000; i++ {
			b := make([]byte, rnd.Intn(7))
			for k := range b {
				b[k] = "av1.-bxA\xc3\xa9"[rnd.Intn(10)]
			}
			s := string(b)
			re := res[rnd.Intn(len(res))]
			call := func() {
				if traced {
					begin(t)
					Call(0, Arg{}, Arg{S: mk(Node{Op: OpInput, K: KString}), F: FS(s)})
				}
			}
			call()
			if got, want := RegexpMatchString(re, s), re.MatchString(s); got != want {
				t.Fatalf("RegexpMatchString(%v, %q) = %v", re, s, got)
			}
			call()
			if got, want := RegexpFindString(re, s), re.FindString(s); got != want {
				t.Fatalf("RegexpFindString(%v, %q) = %q, want %q", re, s, got, want)
			}
			call()
			if got, want := RegexpFindStringSubmatch(re, s), re.FindStringSubmatch(s); !slices.Equal(got, want) {
				t.Fatalf("RegexpFindStringSubmatch(%v, %q) = %q, want %q", re, s, got, want)
			}
			ascii := !slices.ContainsFunc(b, func(c byte) bool { return c >= 0x80 })
			if traced && ascii && re != res[3] && re != res[len(res)-1] && len(cur.conc) > 0 {
				t.Fatalf("RegexpFindStringSubmatch(%v, %q) recorded %v", re, s, cur.conc)
			}
			if traced {
				// The model's own matcher agrees on Perl expressions.
				p := progOf(re, re.String())
				loc, ok := match(p, mk(Node{Op: OpInput, K: KString}), s)
				want := re.FindStringSubmatchIndex(s)
				if ok && re != res[len(res)-1] && !slices.Equal(loc[:len(want)], want) && !(loc == nil && want == nil) {
					t.Fatalf("match(%v, %q) = %v, want %v", re, s, loc, want)
				}
			}
		}
	}
}

// TestFormatModelsAgree checks the decimal formatting models against
// strconv, traced or not.
func TestFormatModelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewSource(6))
	values := []int64{0, 7, -7, 10, -10, 99, 100, -1000, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for range 500 {
		values = append(values, rnd.Int63()>>rnd.Intn(63)*int64(1-2*rnd.Intn(2)))
	}
	for _, traced := range []bool{false, true} {
		for _, v := range values {
			call := func(n int) {
				if traced {
					begin(t)
					args := make([]Arg, n)
					args[0] = Arg{S: mk(Node{Op: OpInput, K: KInt64}), F: uint64(v)}
					Call(0, args...)
				}
			}
			call(1)
			if got, want := StrconvItoa(int(v)), strconv.Itoa(int(v)); got != want {
				t.Fatalf("StrconvItoa(%d) = %q", v, got)
			}
			call(2)
			if got, want := StrconvFormatInt(v, 10), strconv.FormatInt(v, 10); got != want {
				t.Fatalf("StrconvFormatInt(%d) = %q", v, got)
			}
			call(2)
			if got, want := StrconvFormatUint(uint64(v), 10), strconv.FormatUint(uint64(v), 10); got != want {
				t.Fatalf("StrconvFormatUint(%d) = %q", uint64(v), got)
			}
			call(2)
			if got, want := StrconvFormatInt(v, 16), strconv.FormatInt(v, 16); got != want {
				t.Fatalf("StrconvFormatInt(%d, 16) = %q", v, got)
			}
		}
	}
}
