package rt

import "testing"

// The shadows of min and max are if-then-else chains whose value, on
// every assignment of the inputs, is the builtin's: checked by evaluating
// them over inputs around the operands.
func TestMinMax(t *testing.T) {
	for _, tt := range []struct {
		name  string
		isMax bool
		k     Kind
		vals  []int64
		sym   []bool
	}{
		{"min of two", false, KInt, []int64{3, -4}, []bool{true, true}},
		{"max of two", true, KInt, []int64{3, -4}, []bool{true, true}},
		{"min with a constant", false, KInt8, []int64{-5, 7}, []bool{true, false}},
		{"max of three", true, KInt16, []int64{2, 9, 9}, []bool{true, false, true}},
		{"min of unsigned", false, KUint8, []int64{200, 3}, []bool{true, true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			begin(t)
			var args []Arg
			var ins []S
			for i, v := range tt.vals {
				a := Arg{F: uint64(v)}
				if tt.k == KUint8 {
					a.F = uint64(uint8(v))
				}
				if tt.sym[i] {
					a.S = mk(Node{Op: OpInput, K: tt.k, Val: uint64(len(ins))})
					ins = append(ins, a.S)
				}
				args = append(args, a)
			}
			s := MinMax(tt.isMax, tt.k, args...)
			if s == 0 {
				t.Fatal("no shadow")
			}
			// Every input moved by -10..10 around the operands.
			for d := int64(-10); d <= 10; d++ {
				want := int64(0)
				env := map[S]int64{}
				for i, a := range args {
					v := tt.vals[i]
					if a.S != 0 {
						v += d * int64(i+1)
						if tt.k == KUint8 {
							v = int64(uint8(v))
						} else if tt.k == KInt8 {
							v = int64(int8(v))
						}
						env[a.S] = v
					}
					if i == 0 || tt.isMax && v > want || !tt.isMax && v < want {
						want = v
					}
				}
				if got := evalInt(t, s, env, tt.k); got != want {
					t.Fatalf("d=%d: shadow %s evaluates to %d, want %d", d, ExprString(cur.nodes, s), got, want)
				}
			}
		})
	}
}

// evalInt evaluates integer shadow s of kind k with inputs env.
func evalInt(t *testing.T, s S, env map[S]int64, k Kind) int64 {
	t.Helper()
	n := cur.nodes[s]
	switch n.Op {
	case OpInput:
		return env[s]
	case OpConst:
		if k.Signed() {
			return int64(signExtend(k, n.Val))
		}
		return int64(n.Val)
	case OpIte:
		if evalInt(t, n.A, env, KBool) != 0 {
			return evalInt(t, n.B, env, k)
		}
		return evalInt(t, n.C, env, k)
	case OpLt:
		a, b := evalInt(t, n.A, env, n.K2), evalInt(t, n.B, env, n.K2)
		if !n.K2.Signed() {
			if uint64(a) < uint64(b) {
				return 1
			}
			return 0
		}
		if a < b {
			return 1
		}
		return 0
	}
	t.Fatalf("unexpected node %+v", n)
	return 0
}

// Strings: the shadow of min of a symbolic string and constants is the
// chain of string comparisons.
func TestMinMaxStr(t *testing.T) {
	begin(t)
	a := mk(Node{Op: OpInput, K: KString})
	s := MinMaxStr(false, []S{a, 0, 0}, "x", "go", "m")
	if s == 0 || cur.nodes[s].Op != OpIte {
		t.Fatalf("shadow %v, want an if-then-else chain", s)
	}
	if got, want := ExprString(cur.nodes, s), `ite(("m" < ite(("go" < in0),"go",in0)),"m",ite(("go" < in0),"go",in0))`; got != want {
		t.Fatalf("shadow %s, want %s", got, want)
	}
	if MinMaxStr(true, []S{0, 0}, "a", "b") != 0 {
		t.Fatal("concrete operands have a shadow")
	}
}
