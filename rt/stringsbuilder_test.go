package rt

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestBuilderExact runs random sequences of strings.Builder calls (writes
// of symbolic strings, bytes and runes, of constants, writes by code
// dowse does not follow, Reset, Len) through the models and checks that
// String's and Len's shadows evaluate to the builder's content and length
// on the run's input and, for runs without a concretization, on other
// inputs that take the same path.
func TestBuilderExact(t *testing.T) {
	rnd := rand.New(rand.NewSource(9))
	type op int
	const (
		writeSym op = iota
		writeConst
		writeByteSym
		writeRuneSym
		foreign
		reset
		length
		nOps
	)
	// play runs ops on input in (traced or not) and returns the final
	// content and, traced, the shadows of String and of every Len.
	play := func(ops []op, in []Value, traced bool) (string, []int, S, []S) {
		var b strings.Builder
		var lens []int
		var lenS []S
		sym := func(i int, k Kind) S {
			if !traced {
				return 0
			}
			return mk(Node{Op: OpInput, K: k, Val: uint64(i)})
		}
		for _, o := range ops {
			switch o {
			case writeSym:
				Call(0, Arg{}, Arg{S: sym(0, KString), F: FS(in[0].Str)})
				StringsBuilderWriteString(&b, in[0].Str)
			case writeConst:
				Call(0, Arg{}, Arg{})
				StringsBuilderWriteString(&b, "k")
			case writeByteSym:
				Call(0, Arg{}, Arg{S: sym(1, KUint8), F: in[1].Bits})
				StringsBuilderWriteByte(&b, byte(in[1].Bits))
			case writeRuneSym:
				Call(0, Arg{}, Arg{S: sym(2, KInt32), F: uint64(int64(int32(in[2].Bits)))})
				StringsBuilderWriteRune(&b, rune(int32(in[2].Bits)))
			case foreign:
				fmt.Fprint(&b, "f")
			case reset:
				Call(0, Arg{})
				StringsBuilderReset(&b)
			case length:
				Call(0, Arg{})
				n := StringsBuilderLen(&b)
				lens = append(lens, n)
				lenS = append(lenS, Res(idBuilderLen, 0, uint64(n)))
			}
		}
		Call(0, Arg{})
		r := StringsBuilderString(&b)
		return r, lens, Res(idBuilderString, 0, FS(r)), lenS
	}
	word := func() string {
		b := make([]byte, rnd.Intn(3))
		for i := range b {
			b[i] = "ab"[rnd.Intn(2)]
		}
		return string(b)
	}
	input := func() []Value {
		return []Value{{Str: word()}, {Bits: uint64("xy"[rnd.Intn(2)])}, {Bits: uint64([]rune{'r', 's', 'é'}[rnd.Intn(3)])}}
	}
	checked := 0
	for i := 0; i < 500; i++ {
		ops := make([]op, 1+rnd.Intn(6))
		for k := range ops {
			ops[k] = op(rnd.Intn(int(nOps)))
		}
		in := input()
		on.Store(false)
		want, wantLens, _, _ := play(ops, in, false)
		begin(t)
		got, lens, sh, lenS := play(ops, in, true)
		if got != want || !slices.Equal(lens, wantLens) {
			t.Fatalf("%v on %v: %q %v, want %q %v", ops, in, got, lens, want, wantLens)
		}
		events, nodes, exact := slices.Clone(cur.events), slices.Clone(cur.nodes), len(cur.conc) == 0
		for j := range 30 {
			other := in
			if j > 0 {
				other = input()
			}
			same := true
			for _, e := range events {
				if v, ok := evalShadow(nodes, e.Cond, other); !ok || (v.Bits == 1) != e.Taken {
					same = false
				}
			}
			if j == 0 && !same {
				t.Fatalf("%v on %v: a condition does not hold on the run's input", ops, in)
			}
			if !same || j > 0 && !exact {
				continue
			}
			on.Store(false)
			w, wl, _, _ := play(ops, other, false)
			on.Store(true)
			checked++
			if sh == 0 {
				if j == 0 && !exact {
					continue
				}
				if w != got {
					t.Fatalf("%v on %v: no shadow, but %v of the same path builds %q, not %q", ops, in, other, w, got)
				}
			} else if v, ok := evalShadow(nodes, sh, other); !ok || v.Str != w {
				t.Fatalf("%v on %v: the shadow is %q on %v, want %q", ops, in, v.Str, other, w)
			}
			for k, s := range lenS {
				if s == 0 {
					if !exact || wl[k] == lens[k] {
						continue
					}
					t.Fatalf("%v on %v: Len %d has no shadow, but is %d on %v", ops, in, k, wl[k], other)
				}
				if v, ok := evalShadow(nodes, s, other); !ok || int(v.Bits) != wl[k] {
					t.Fatalf("%v on %v: Len %d's shadow is %d on %v, want %d", ops, in, k, v.Bits, other, wl[k])
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}
