package rt

import (
	"regexp"
	"regexp/syntax"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// Models of regexp matching on a symbolic string. The model runs a
// backtracking matcher of its own over the compiled program of the
// expression (regexp/syntax, leftmost-first priority: what Go's regexp
// guarantees for submatches) and records an implicit branch for every
// test it makes on the input — "there is a byte at position i", "byte i
// is ASCII", "byte i is in this instruction's set", "i is the end" — so
// the run's path says exactly how the expression matched (or failed to):
// the search negates those tests one at a time and reaches the other
// ways through the expression. Results need no shadows beyond the
// submatches, which are slices of the input at the positions the path
// fixes. The original's result is always returned; when the matcher
// disagrees with it (a POSIX expression, whose submatches are the
// longest), gives up (too many steps) or meets what it does not model (a
// byte that is not ASCII, a word or line boundary next to a symbolic
// byte), it records a concretization.

var (
	idRegexpMatchString        = funcID("(*regexp.Regexp).MatchString")
	idRegexpFindStringSubmatch = funcID("(*regexp.Regexp).FindStringSubmatch")
	idRegexpFindString         = funcID("(*regexp.Regexp).FindString")
	idRegexpPackageMatchString = funcID("regexp.MatchString")
	maxMatchSteps              = 1 << 16
	progs                      sync.Map // *regexp.Regexp or pattern string -> *matchProg
	errNotModelled             = &matchProg{}
)

// matchProg is a compiled program with, per instruction that consumes a
// rune, the set of ASCII bytes it accepts.
type matchProg struct {
	prog  *syntax.Prog
	ncap  int
	ascii [][]byte // by instruction
}

// progOf compiles (once) the program of the expression with source expr.
func progOf(key any, expr string) *matchProg {
	if p, ok := progs.Load(key); ok {
		return p.(*matchProg)
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		progs.Store(key, errNotModelled)
		return errNotModelled
	}
	ncap := re.MaxCap()
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		progs.Store(key, errNotModelled)
		return errNotModelled
	}
	p := &matchProg{prog: prog, ncap: ncap, ascii: make([][]byte, len(prog.Inst))}
	for pc, inst := range prog.Inst {
		switch inst.Op {
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			var set []byte
			for b := 0; b < utf8RuneSelf; b++ {
				if inst.MatchRune(rune(b)) {
					set = append(set, byte(b))
				}
			}
			p.ascii[pc] = set
		}
	}
	progs.Store(key, p)
	return p
}

// matcher is one symbolic match of a program against s.
type matcher struct {
	p       *matchProg
	ss      S
	s       string
	L       S
	visited []bool
	caps    []int
	steps   int
	lost    bool // a concretization was recorded
	over    bool // too many steps
}

// more records whether there is a byte at position i.
func (m *matcher) more(i int) bool {
	ok := i < len(m.s)
	Imp(0, ok, mk(Node{Op: OpLt, K: KBool, K2: KInt, A: intS(i), B: m.L}))
	return ok
}

// byteAt is the shadow of byte i and whether it is ASCII (recorded).
func (m *matcher) byteAt(i int) (S, bool) {
	b := mk(Node{Op: OpIndex, K: KUint8, K2: KInt, A: m.ss, B: intS(i)})
	ascii := m.s[i] < utf8RuneSelf
	Imp(0, ascii, mk(Node{Op: OpLt, K: KBool, K2: KUint8, A: b, B: constant(KUint8, utf8RuneSelf)}))
	if !ascii && !m.lost {
		m.lost = true
		Conc(0, "a regular expression on text that is not ASCII")
	}
	return b, ascii
}

// try reports whether the program matches from instruction pc at byte
// pos, leaving the submatch positions in m.caps (the first way, by the
// program's priorities, as a backtracking matcher finds it).
func (m *matcher) try(pc uint32, pos int) bool {
	for {
		if m.over {
			return false
		}
		if m.steps++; m.steps > maxMatchSteps {
			m.over = true
			return false
		}
		k := int(pc)*(len(m.s)+1) + pos
		if m.visited[k] {
			return false
		}
		m.visited[k] = true
		inst := &m.p.prog.Inst[pc]
		switch inst.Op {
		case syntax.InstFail:
			return false
		case syntax.InstMatch:
			m.caps[1] = pos // the whole match ends here (it starts where the search does)
			return true
		case syntax.InstNop:
			pc = inst.Out
		case syntax.InstAlt, syntax.InstAltMatch:
			if m.try(inst.Out, pos) {
				return true
			}
			pc = inst.Arg
		case syntax.InstCapture:
			if int(inst.Arg) >= len(m.caps) {
				pc = inst.Out
				continue
			}
			old := m.caps[inst.Arg]
			m.caps[inst.Arg] = pos
			if m.try(inst.Out, pos) {
				return true
			}
			m.caps[inst.Arg] = old
			return false
		case syntax.InstEmptyWidth:
			if !m.empty(syntax.EmptyOp(inst.Arg), pos) {
				return false
			}
			pc = inst.Out
		case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
			if !m.more(pos) {
				return false
			}
			b, ascii := m.byteAt(pos)
			if !ascii {
				r, n := utf8.DecodeRuneInString(m.s[pos:])
				if !inst.MatchRune(r) {
					return false
				}
				pos += n
				pc = inst.Out
				continue
			}
			in := inSet(m.s[pos], m.p.ascii[pc])
			Imp(0, in, byteIn(b, m.p.ascii[pc]))
			if !in {
				return false
			}
			pos++
			pc = inst.Out
		default:
			m.over = true
			return false
		}
	}
}

// empty tests the zero-width assertions op at pos, recording the tests
// on the input's length; assertions that look at symbolic bytes (word and
// line boundaries) are a concretization.
func (m *matcher) empty(op syntax.EmptyOp, pos int) bool {
	before, after := rune(-1), rune(-1)
	if pos > 0 {
		before, _ = utf8.DecodeLastRuneInString(m.s[:pos])
	}
	if pos < len(m.s) {
		after, _ = utf8.DecodeRuneInString(m.s[pos:])
	}
	if op&(syntax.EmptyBeginLine|syntax.EmptyEndLine|syntax.EmptyWordBoundary|syntax.EmptyNoWordBoundary) != 0 && !m.lost {
		m.lost = true
		Conc(0, "a line or word boundary in a regular expression")
	}
	if op&(syntax.EmptyEndText|syntax.EmptyEndLine) != 0 {
		end := pos == len(m.s)
		Imp(0, end, mk(Node{Op: OpEq, K: KBool, K2: KInt, A: intS(pos), B: m.L}))
	}
	return op&^syntax.EmptyOpContext(before, after) == 0
}

// inSet reports whether sorted set holds b.
func inSet(b byte, set []byte) bool {
	for _, c := range set {
		if c == b {
			return true
		}
	}
	return false
}

// match runs the leftmost-first search of p in s (shadow ss) and returns
// the submatch positions (nil: no match) and whether the model holds.
func match(p *matchProg, ss S, s string) ([]int, bool) {
	if p == errNotModelled {
		return nil, false
	}
	m := &matcher{p: p, ss: ss, s: s, L: StrLen(ss), visited: make([]bool, len(p.prog.Inst)*(len(s)+1))}
	m.caps = make([]int, 2*(p.ncap+1))
	anchored := p.prog.StartCond()&syntax.EmptyBeginText != 0
	for start := 0; ; start++ {
		for i := range m.caps {
			m.caps[i] = -1
		}
		m.caps[0] = start
		if m.try(uint32(p.prog.Start), start) {
			return m.caps, !m.over
		}
		if m.over || anchored || !m.more(start) {
			return nil, !m.over
		}
		if m.s[start] >= utf8RuneSelf {
			// Go's search moves on by a rune.
			_, n := utf8.DecodeRuneInString(m.s[start:])
			start += n - 1
		}
	}
}

// regexpModel matches re against s for a model with function id and
// reports the submatch positions when the model agrees with want (the
// original's positions) and s is symbolic.
func regexpModel(key any, expr string, ss S, s string, want []int) ([]int, bool) {
	if ss == 0 {
		return nil, false
	}
	got, ok := match(progOf(key, expr), ss, s)
	if !ok || len(got) < len(want) || (got == nil) != (want == nil) {
		Conc(0, "a regular expression the model does not follow")
		return nil, false
	}
	for i := range want {
		if got[i] != want[i] {
			Conc(0, "a regular expression the model does not follow")
			return nil, false
		}
	}
	return got, true
}

// RegexpMatchString is (*regexp.Regexp).MatchString.
func RegexpMatchString(re *regexp.Regexp, s string) bool {
	if !on.Load() || !Enter(idRegexpMatchString, 2) {
		return re.MatchString(s)
	}
	ss := In(1, FS(s))
	loc := re.FindStringIndex(s)
	if loc != nil {
		loc = loc[:2]
	}
	regexpModel(re, re.String(), ss, s, loc)
	return loc != nil
}

// RegexpMatchStringPackage is regexp.MatchString.
func RegexpMatchStringPackage(pattern, s string) (bool, error) {
	if !on.Load() || !Enter(idRegexpPackageMatchString, 2) {
		return regexp.MatchString(pattern, s)
	}
	ps, ss := In(0, FS(pattern)), In(1, FS(s))
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false, err
	}
	if ps != 0 {
		Conc(0, "a regular expression with a symbolic pattern")
		return re.MatchString(s), nil
	}
	loc := re.FindStringIndex(s)
	regexpModel(pattern, pattern, ss, s, loc)
	return loc != nil, nil
}

// RegexpFindString is (*regexp.Regexp).FindString.
func RegexpFindString(re *regexp.Regexp, s string) string {
	if !on.Load() || !Enter(idRegexpFindString, 2) {
		return re.FindString(s)
	}
	ss := In(1, FS(s))
	loc := re.FindStringIndex(s)
	if _, ok := regexpModel(re, re.String(), ss, s, loc); !ok || loc == nil {
		if loc == nil {
			return ""
		}
		return s[loc[0]:loc[1]]
	}
	r := s[loc[0]:loc[1]]
	Ret(idRegexpFindString, Arg{S: mk(Node{Op: OpSlice, K: KString, A: ss, B: intS(loc[0]), C: intS(loc[1])}), F: FS(r)})
	return r
}

// RegexpFindStringSubmatch is (*regexp.Regexp).FindStringSubmatch: the
// submatches get the shadows of the slices of s they are.
func RegexpFindStringSubmatch(re *regexp.Regexp, s string) []string {
	if !on.Load() || !Enter(idRegexpFindStringSubmatch, 2) {
		return re.FindStringSubmatch(s)
	}
	ss := In(1, FS(s))
	r := re.FindStringSubmatch(s)
	loc := re.FindStringSubmatchIndex(s)
	if _, ok := regexpModel(re, re.String(), ss, s, loc); !ok || r == nil {
		return r
	}
	for k := range r {
		if a, b := loc[2*k], loc[2*k+1]; a >= 0 {
			St(uintptr(unsafe.Pointer(&r[k])), mk(Node{Op: OpSlice, K: KString, A: ss, B: intS(a), C: intS(b)}), FS(r[k]))
		}
	}
	return r
}
