package rt

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// evalShadow evaluates the shadow s of the arena nodes on the input
// vector in (integers and bools in Bits, strings in Str), with Go's
// semantics; ok is false where the value is undefined (an index or slice
// out of range that no if-then-else guards).
func evalShadow(nodes []Node, s S, in []Value) (v Value, ok bool) {
	n := nodes[s]
	arg := func(a S) (Value, bool) { return evalShadow(nodes, a, in) }
	signed := func(k Kind, b uint64) int64 {
		switch k.Bits() {
		case 8:
			return int64(int8(b))
		case 16:
			return int64(int16(b))
		case 32:
			return int64(int32(b))
		}
		return int64(b)
	}
	switch n.Op {
	case OpConst:
		return Value{Bits: n.Val}, true
	case OpStr:
		return Value{Str: n.Str}, true
	case OpInput:
		x := in[n.Val]
		if n.K != KString {
			x.Bits = mask(n.K, x.Bits)
		}
		return x, true
	case OpIte:
		c, ok := arg(n.A)
		if !ok {
			return Value{}, false
		}
		if c.Bits != 0 {
			return arg(n.B)
		}
		return arg(n.C)
	case OpLAnd, OpLOr:
		a, okA := arg(n.A)
		b, okB := arg(n.B)
		decisive := uint64(0)
		if n.Op == OpLOr {
			decisive = 1
		}
		switch {
		case okA && a.Bits == decisive, okB && b.Bits == decisive:
			return Value{Bits: decisive}, true
		case okA && okB:
			return Value{Bits: 1 - decisive}, true
		}
		return Value{}, false
	case OpFromList:
		b := make([]byte, len(n.List))
		for i, e := range n.List {
			x, ok := arg(e)
			if !ok {
				return Value{}, false
			}
			b[i] = byte(x.Bits)
		}
		return Value{Str: string(b)}, true
	}
	a, ok := arg(n.A)
	if !ok {
		return Value{}, false
	}
	var b, c Value
	if n.B != 0 {
		if b, ok = arg(n.B); !ok {
			return Value{}, false
		}
	}
	if n.C != 0 {
		if c, ok = arg(n.C); !ok {
			return Value{}, false
		}
	}
	bit := func(t bool) (Value, bool) { return Value{Bits: B(t)}, true }
	switch n.Op {
	case OpAdd:
		return Value{Bits: mask(n.K, a.Bits+b.Bits)}, true
	case OpSub:
		return Value{Bits: mask(n.K, a.Bits-b.Bits)}, true
	case OpMul:
		return Value{Bits: mask(n.K, a.Bits*b.Bits)}, true
	case OpOr:
		return Value{Bits: a.Bits | b.Bits}, true
	case OpAnd:
		return Value{Bits: a.Bits & b.Bits}, true
	case OpNot:
		return Value{Bits: 1 - a.Bits}, true
	case OpConv:
		x := a.Bits
		if n.K2.Signed() {
			x = uint64(signed(n.K2, x))
		}
		return Value{Bits: mask(n.K, x)}, true
	case OpLen:
		return Value{Bits: uint64(len(a.Str))}, true
	case OpIndex:
		i := signed(n.K2, b.Bits)
		if i < 0 || i >= int64(len(a.Str)) {
			return Value{}, false
		}
		return Value{Bits: uint64(a.Str[i])}, true
	case OpSlice:
		lo, hi := int64(b.Bits), int64(c.Bits)
		if lo < 0 || lo > hi || hi > int64(len(a.Str)) {
			return Value{}, false
		}
		return Value{Str: a.Str[lo:hi]}, true
	case OpConcat:
		return Value{Str: a.Str + b.Str}, true
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		var cmp int
		switch {
		case n.K2 == KString:
			cmp = bytes.Compare([]byte(a.Str), []byte(b.Str))
		case n.K2.Signed():
			x, y := signed(n.K2, a.Bits), signed(n.K2, b.Bits)
			cmp = map[bool]int{true: -1, false: 0}[x < y] + map[bool]int{true: 1, false: 0}[x > y]
		default:
			cmp = map[bool]int{true: -1, false: 0}[a.Bits < b.Bits] + map[bool]int{true: 1, false: 0}[a.Bits > b.Bits]
		}
		return bit(map[Op]bool{OpEq: cmp == 0, OpNe: cmp != 0, OpLt: cmp < 0, OpLe: cmp <= 0, OpGt: cmp > 0, OpGe: cmp >= 0}[n.Op])
	}
	panic(fmt.Sprintf("evalShadow: op %v", n.Op))
}

// obs is one observable value of a model's result with its shadow (0:
// concrete, then the path must fix it).
type obs struct {
	v uint64
	s S
}

// sub is a sub-slice of the argument among a model's results: its
// offset in the argument matters (its elements are the argument's cells).
type sub struct{ r, of []byte }

// offset is r's offset in the slice it is a part of, -1 when r is empty.
func (x sub) offset() int {
	if len(x.r) == 0 {
		return -1
	}
	return int(uintptr(unsafe.Pointer(&x.r[0])) - uintptr(unsafe.Pointer(unsafe.SliceData(x.of))))
}

// bytesCases are the byte-slice models with their first argument the
// symbolic slice: each calls its model (announced or not by the caller)
// and returns the observable values with their shadows, the sub-slices of
// the argument it returned, and the same values computed by package bytes.
var bytesCases = []struct {
	name  string
	nargs int
	model func(s []byte) ([]obs, []sub)
	orig  func(s []byte) []uint64
}{
	{"Index", 2, func(s []byte) ([]obs, []sub) {
		r := BytesIndex(s, []byte("a."))
		return []obs{{uint64(r), Res(idBytesIndex, 0, uint64(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{uint64(bytes.Index(s, []byte("a.")))} }},
	{"Contains", 2, func(s []byte) ([]obs, []sub) {
		r := BytesContains(s, []byte("."))
		return []obs{{B(r), Res(idBytesContains, 0, B(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{B(bytes.Contains(s, []byte(".")))} }},
	{"IndexAny", 2, func(s []byte) ([]obs, []sub) {
		r := BytesIndexAny(s, ". ")
		return []obs{{uint64(r), Res(idBytesIndexAny, 0, uint64(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{uint64(bytes.IndexAny(s, ". "))} }},
	{"ContainsAny", 2, func(s []byte) ([]obs, []sub) {
		r := BytesContainsAny(s, "A\t")
		return []obs{{B(r), Res(idBytesContainsAny, 0, B(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{B(bytes.ContainsAny(s, "A\t"))} }},
	{"EqualFold", 2, func(s []byte) ([]obs, []sub) {
		r := BytesEqualFold(s, []byte("Ab"))
		return []obs{{B(r), Res(idBytesEqualFold, 0, B(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{B(bytes.EqualFold(s, []byte("Ab")))} }},
	{"TrimSpace", 1, func(s []byte) ([]obs, []sub) {
		r := BytesTrimSpace(s)
		return []obs{{uint64(len(r)), Res(idBytesTrimSpace, 0, uint64(len(r)))}}, []sub{{r, s}}
	}, func(s []byte) []uint64 { return []uint64{uint64(len(bytes.TrimSpace(s)))} }},
	{"Trim", 2, func(s []byte) ([]obs, []sub) {
		r := BytesTrim(s, " a")
		return []obs{{uint64(len(r)), Res(idBytesTrim, 0, uint64(len(r)))}}, []sub{{r, s}}
	}, func(s []byte) []uint64 { return []uint64{uint64(len(bytes.Trim(s, " a")))} }},
	{"TrimLeft", 2, func(s []byte) ([]obs, []sub) {
		r := BytesTrimLeft(s, " a")
		return []obs{{uint64(len(r)), Res(idBytesTrimLeft, 0, uint64(len(r)))}}, []sub{{r, s}}
	}, func(s []byte) []uint64 { return []uint64{uint64(len(bytes.TrimLeft(s, " a")))} }},
	{"TrimRight", 2, func(s []byte) ([]obs, []sub) {
		r := BytesTrimRight(s, ".")
		return []obs{{uint64(len(r)), Res(idBytesTrimRight, 0, uint64(len(r)))}}, []sub{{r, s}}
	}, func(s []byte) []uint64 { return []uint64{uint64(len(bytes.TrimRight(s, ".")))} }},
	{"TrimPrefix", 2, func(s []byte) ([]obs, []sub) {
		r := BytesTrimPrefix(s, []byte("a."))
		return []obs{{uint64(len(r)), Res(idBytesTrimPrefix, 0, uint64(len(r)))}}, []sub{{r, s}}
	}, func(s []byte) []uint64 { return []uint64{uint64(len(bytes.TrimPrefix(s, []byte("a."))))} }},
	{"TrimSuffix", 2, func(s []byte) ([]obs, []sub) {
		r := BytesTrimSuffix(s, []byte("."))
		return []obs{{uint64(len(r)), Res(idBytesTrimSuffix, 0, uint64(len(r)))}}, []sub{{r, s}}
	}, func(s []byte) []uint64 { return []uint64{uint64(len(bytes.TrimSuffix(s, []byte("."))))} }},
	{"Cut", 2, func(s []byte) ([]obs, []sub) {
		b, a, f := BytesCut(s, []byte("="))
		return []obs{
			{uint64(len(b)), Res(idBytesCut, 0, uint64(len(b)))},
			{uint64(len(a)), Res(idBytesCut, 1, uint64(len(a)))},
			{B(f), Res(idBytesCut, 2, B(f))},
		}, []sub{{b, s}, {a, s}}
	}, func(s []byte) []uint64 {
		b, a, f := bytes.Cut(s, []byte("="))
		return []uint64{uint64(len(b)), uint64(len(a)), B(f)}
	}},
	{"Fields", 1, func(s []byte) ([]obs, []sub) {
		return parts(bytes.Fields(s), BytesFields(s), idBytesFields, s)
	}, func(s []byte) []uint64 { return lens(bytes.Fields(s)) }},
	{"Split", 2, func(s []byte) ([]obs, []sub) {
		return parts(bytes.Split(s, []byte(".")), BytesSplit(s, []byte(".")), idBytesSplit, s)
	}, func(s []byte) []uint64 { return lens(bytes.Split(s, []byte("."))) }},
	{"SplitN", 3, func(s []byte) ([]obs, []sub) {
		return parts(bytes.SplitN(s, []byte("="), 2), BytesSplitN(s, []byte("="), 2), idBytesSplitN, s)
	}, func(s []byte) []uint64 { return lens(bytes.SplitN(s, []byte("="), 2)) }},
	{"utf8.DecodeRune", 1, func(s []byte) ([]obs, []sub) {
		r, n := UTF8DecodeRune(s)
		return []obs{{uint64(int64(r)), Res(idUTF8DecodeRune, 0, uint64(int64(r)))}, {uint64(n), Res(idUTF8DecodeRune, 1, uint64(n))}}, nil
	}, func(s []byte) []uint64 {
		r, n := utf8.DecodeRune(s)
		return []uint64{uint64(int64(r)), uint64(n)}
	}},
	{"utf8.DecodeLastRune", 1, func(s []byte) ([]obs, []sub) {
		r, n := UTF8DecodeLastRune(s)
		return []obs{{uint64(int64(r)), Res(idUTF8DecodeLastRune, 0, uint64(int64(r)))}, {uint64(n), Res(idUTF8DecodeLastRune, 1, uint64(n))}}, nil
	}, func(s []byte) []uint64 {
		r, n := utf8.DecodeLastRune(s)
		return []uint64{uint64(int64(r)), uint64(n)}
	}},
	{"utf8.Valid", 1, func(s []byte) ([]obs, []sub) {
		r := UTF8Valid(s)
		return []obs{{B(r), Res(idUTF8Valid, 0, B(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{B(utf8.Valid(s))} }},
	{"utf8.RuneCount", 1, func(s []byte) ([]obs, []sub) {
		r := UTF8RuneCount(s)
		return []obs{{uint64(r), Res(idUTF8RuneCount, 0, uint64(r))}}, nil
	}, func(s []byte) []uint64 { return []uint64{uint64(utf8.RuneCount(s))} }},
	{"utf8.DecodeLastRuneInString", 1, func(s []byte) ([]obs, []sub) {
		// The string's shadow is the slice's view, as string(s) has.
		var ss S
		if on.Load() && Enter(0, 1) {
			ss, _ = byteArg(0, s)
		}
		str := string(s)
		Call(0, Arg{S: ss, F: FS(str)})
		r, n := UTF8DecodeLastRuneInString(str)
		return []obs{{uint64(int64(r)), Res(idUTF8DecodeLastRuneInString, 0, uint64(int64(r)))}, {uint64(n), Res(idUTF8DecodeLastRuneInString, 1, uint64(n))}}, nil
	}, func(s []byte) []uint64 {
		r, n := utf8.DecodeLastRuneInString(string(s))
		return []uint64{uint64(int64(r)), uint64(n)}
	}},
	{"ToLower", 1, func(s []byte) ([]obs, []sub) {
		return mapped(BytesToLower(s), idBytesToLower)
	}, func(s []byte) []uint64 { return mappedValues(bytes.ToLower(s)) }},
	{"ToUpper", 1, func(s []byte) ([]obs, []sub) {
		return mapped(BytesToUpper(s), idBytesToUpper)
	}, func(s []byte) []uint64 { return mappedValues(bytes.ToUpper(s)) }},
}

// parts observes the result r of a model that splits s (want: the
// original's result, to be compared too): its length and each part's.
func parts(want, r [][]byte, id uint32, s []byte) ([]obs, []sub) {
	o := []obs{{uint64(len(r)), Res(id, 0, uint64(len(r)))}}
	var subs []sub
	for k := range r {
		o = append(o, obs{uint64(len(r[k])), Ld(uintptr(unsafe.Pointer(&r[k])), uint64(len(r[k])))})
		subs = append(subs, sub{r[k], s})
	}
	if !slices.EqualFunc(want, r, bytes.Equal) {
		o = append(o, obs{v: 1}) // differs from lens(want)
	}
	return o, subs
}

func lens(r [][]byte) []uint64 {
	o := []uint64{uint64(len(r))}
	for _, p := range r {
		o = append(o, uint64(len(p)))
	}
	return o
}

// mapped observes a new slice: its length and each byte's cell.
func mapped(r []byte, id uint32) ([]obs, []sub) {
	o := []obs{{uint64(len(r)), Res(id, 0, uint64(len(r)))}}
	for i := range r {
		o = append(o, obs{uint64(r[i]), Ld(uintptr(unsafe.Pointer(&r[i])), uint64(r[i]))})
	}
	return o, nil
}

func mappedValues(r []byte) []uint64 {
	o := []uint64{uint64(len(r))}
	for _, b := range r {
		o = append(o, uint64(b))
	}
	return o
}

// TestBytesModelsExact runs each byte-slice model on a slice with symbolic
// elements (and a symbolic length: a slice that is not an input, whose
// length the model must choose, or an input slice, whose longer elements
// are leaves) and checks that the run is exact: every recorded branch
// condition and every result shadow evaluates to the run's values, and
// on other inputs that take the same path (every condition evaluates to
// its outcome) the model records the same branches (no divergence), the
// shadows evaluate to what the model returns there, values without a
// shadow do not change, and sub-slices of the argument start where they
// did (their elements are the argument's cells). Runs that record a
// concretization are only checked against package bytes.
func TestBytesModelsExact(t *testing.T) {
	const maxN = 6
	// Searches cover the positions of every input up to the input
	// length bound, the worker's.
	saved := theWorker
	theWorker = &worker{maxLen: maxN}
	t.Cleanup(func() { theWorker = saved })
	rnd := rand.New(rand.NewSource(7))
	alphabet := "a.= \tA"
	gen := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rnd.Intn(len(alphabet))]
			if rnd.Intn(40) == 0 {
				b[i] = "\xc3\x85é"[rnd.Intn(3)]
			}
		}
		return b
	}
	inputs := func(b []byte) []Value {
		in := make([]Value, maxN+1)
		for j := range maxN {
			in[j] = Value{Bits: uint64(rnd.Intn(256))}
			if j < len(b) {
				in[j].Bits = uint64(b[j])
			}
		}
		in[maxN] = Value{Bits: uint64(len(b))}
		return in
	}
	type run struct {
		o      []obs
		subs   []sub
		events []Event
		nodes  []Node
		exact  bool
	}
	paths := 0
	for _, c := range bytesCases {
		// trace runs the model on a slice b made symbolic as mode says:
		// concrete length, symbolic length, input slice.
		trace := func(b []byte, mode int) run {
			begin(t)
			leaves := len(b)
			if mode == 2 {
				leaves = maxN
			}
			elems := make([]S, leaves)
			for j := range elems {
				elems[j] = mk(Node{Op: OpInput, K: KUint8, Val: uint64(j)})
			}
			for j := range b {
				St(uintptr(unsafe.Pointer(&b[j])), elems[j], uint64(b[j]))
			}
			var ls S
			if mode > 0 {
				ls = mk(Node{Op: OpInput, K: KInt, Val: maxN})
			}
			if mode == 2 {
				cur.slices = map[uintptr]inputSlice{uintptr(unsafe.Pointer(unsafe.SliceData(b))): {n: len(b), elems: elems}}
			}
			args := make([]Arg, c.nargs)
			args[0] = Arg{S: ls, F: uint64(len(b))}
			Call(0, args...)
			o, subs := c.model(b)
			if got, want := values(o), c.orig(b); !slices.Equal(got, want) {
				t.Fatalf("%s(%q) traced = %v, want %v", c.name, b, got, want)
			}
			return run{o, subs, slices.Clone(cur.events), slices.Clone(cur.nodes), len(cur.conc) == 0}
		}
		for mode := range 3 {
			for iter := 0; iter < 150; iter++ {
				a := gen(rnd.Intn(maxN + 1))
				// Untraced, the model is the original.
				on.Store(false)
				o, _ := c.model(a)
				if got, want := values(o), c.orig(a); !slices.Equal(got, want) {
					t.Fatalf("%s(%q) untraced = %v, want %v", c.name, a, got, want)
				}
				ra := trace(a, mode)
				// check reports whether b (inputs in) takes a's path and
				// checks the shadows there.
				check := func(b []byte, in []Value, same bool) bool {
					for _, e := range ra.events {
						if e.Cond == 0 {
							continue
						}
						v, ok := evalShadow(ra.nodes, e.Cond, in)
						if !ok {
							t.Fatalf("%s(%q): a condition is undefined on %q", c.name, a, b)
						}
						if (v.Bits == 1) != e.Taken {
							if same {
								t.Fatalf("%s(%q): a condition does not hold on the run's own input", c.name, a)
							}
							return false
						}
					}
					rb := ra
					if !same {
						rb = trace(b, mode)
						if len(rb.events) != len(ra.events) {
							t.Fatalf("%s(%q): %d branches on %q of the same path, want %d (a divergence)", c.name, a, len(rb.events), b, len(ra.events))
						}
						for k := range rb.events {
							if rb.events[k].Taken != ra.events[k].Taken {
								t.Fatalf("%s(%q): branch %d goes the other way on %q of the same path (a divergence)", c.name, a, k, b)
							}
						}
						// The number of parts may differ (it has
						// a shadow, checked below): the parts both
						// have are compared.
						if len(rb.o) != len(ra.o) && ra.o[0].s == 0 {
							t.Fatalf("%s(%q): %d results on %q of the same path, want %d", c.name, a, len(rb.o), b, len(ra.o))
						}
					}
					for k := range min(len(ra.o), len(rb.o)) {
						want := rb.o[k].v
						if ra.o[k].s == 0 {
							if want != ra.o[k].v {
								t.Fatalf("%s(%q): observation %d has no shadow, but is %d on %q of the same path, not %d", c.name, a, k, want, b, ra.o[k].v)
							}
							continue
						}
						v, ok := evalShadow(ra.nodes, ra.o[k].s, in)
						if !ok || v.Bits != want {
							t.Fatalf("%s(%q): observation %d's shadow is %d (defined %v) on %q, want %d", c.name, a, k, v.Bits, ok, b, want)
						}
					}
					for k := range min(len(ra.subs), len(rb.subs)) {
						if x, y := ra.subs[k].offset(), rb.subs[k].offset(); x >= 0 && y >= 0 && x != y {
							t.Fatalf("%s(%q): result %d starts at %d, but at %d on %q of the same path", c.name, a, k, x, y, b)
						}
					}
					return true
				}
				check(a, inputs(a), true)
				if !ra.exact {
					continue
				}
				for range 100 {
					n := len(a)
					if mode > 0 {
						n = rnd.Intn(maxN + 1)
					}
					b := gen(n)
					if check(b, inputs(b), false) {
						paths++
					}
				}
			}
		}
	}
	if paths == 0 {
		t.Fatal("no other input took a run's path")
	}
}

func values(o []obs) []uint64 {
	v := make([]uint64, len(o))
	for i := range o {
		v[i] = o[i].v
	}
	return v
}

// TestRepeatExact checks the model of strings.Repeat with a symbolic
// string and count: its result and panics are the original's, its
// conditions and result shadow hold on the run's input, and on other
// inputs of the same path the shadow is the original's result there.
func TestRepeatExact(t *testing.T) {
	saved := theWorker
	theWorker = &worker{maxLen: 4}
	t.Cleanup(func() { theWorker = saved })
	rnd := rand.New(rand.NewSource(8))
	word := func() string {
		b := make([]byte, rnd.Intn(4))
		for i := range b {
			b[i] = "ab"[rnd.Intn(2)]
		}
		return string(b)
	}
	repeat := func(f func(string, int) string, s string, n int) (r string, panicked bool) {
		defer func() { panicked = recover() != nil }()
		return f(s, n), false
	}
	traced := func(s string, n int, symS bool) (string, bool, []Event, []Node, S) {
		begin(t)
		var ss S
		if symS {
			ss = mk(Node{Op: OpInput, K: KString, Val: 0})
		}
		Call(0, Arg{S: ss, F: FS(s)}, Arg{S: mk(Node{Op: OpInput, K: KInt, Val: 1}), F: uint64(n)})
		r, p := repeat(StringsRepeat, s, n)
		return r, p, slices.Clone(cur.events), slices.Clone(cur.nodes), Res(idStringsRepeat, 0, FS(r))
	}
	other := 0
	for i := 0; i < 600; i++ {
		s, n, symS := word(), rnd.Intn(8)-2, rnd.Intn(4) != 0
		want, wantP := repeat(strings.Repeat, s, n)
		r, p, events, nodes, sh := traced(s, n, symS)
		if r != want || p != wantP {
			t.Fatalf("StringsRepeat(%q, %d) = %q (panic %v), want %q (panic %v)", s, n, r, p, want, wantP)
		}
		if symS && n > 0 && sh == 0 {
			t.Fatalf("StringsRepeat(%q, %d): no shadow", s, n)
		}
		for range 50 {
			s2, n2 := s, rnd.Intn(8)-2
			if symS {
				s2 = word()
			}
			in := []Value{{Str: s2}, {Bits: uint64(n2)}}
			same := true
			for _, e := range events {
				if v, ok := evalShadow(nodes, e.Cond, in); !ok || (v.Bits == 1) != e.Taken {
					same = false
				}
			}
			if s2 == s && n2 == n && !same {
				t.Fatalf("StringsRepeat(%q, %d): a condition does not hold on the run's own input", s, n)
			}
			if !same {
				continue
			}
			other++
			w, wp := repeat(strings.Repeat, s2, n2)
			if wp != p {
				t.Fatalf("StringsRepeat(%q, %d) and (%q, %d) take the same path, but one panics", s, n, s2, n2)
			}
			if sh == 0 {
				if w != r {
					t.Fatalf("StringsRepeat(%q, %d): no shadow, but (%q, %d) of the same path gives %q", s, n, s2, n2, w)
				}
				continue
			}
			if v, ok := evalShadow(nodes, sh, in); !ok || v.Str != w {
				t.Fatalf("StringsRepeat(%q, %d): the shadow is %q on (%q, %d), want %q", s, n, v.Str, s2, n2, w)
			}
		}
	}
	if other == 0 {
		t.Fatal("no other input took a run's path")
	}
	// A count whose result would exceed MaxAlloc stops the run before the
	// allocation; an empty string repeats any count.
	for _, c := range []struct {
		s     string
		n     int
		bound bool
	}{{"ab", MaxAlloc, true}, {"", 1 << 40, false}, {"x", MaxAlloc, false}, {"x", 1 << 62, true}} {
		begin(t)
		Call(0, Arg{S: mk(Node{Op: OpInput, K: KString, Val: 0}), F: FS(c.s)}, Arg{S: mk(Node{Op: OpInput, K: KInt, Val: 1}), F: uint64(c.n)})
		done := make(chan bool)
		go func() {
			defer close(done)
			StringsRepeat(c.s, c.n)
			done <- true
		}()
		returned := <-done
		if returned == c.bound || cur.allocBound != c.bound {
			t.Errorf("StringsRepeat(%q, %d): returned %v, allocation bound %v; want bound %v", c.s, c.n, returned, cur.allocBound, c.bound)
		}
	}
}
