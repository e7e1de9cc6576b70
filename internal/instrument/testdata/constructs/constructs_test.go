package constructs

import (
	"errors"
	"runtime"
	"slices"
	"testing"
)

func TestGenerics(t *testing.T) {
	if Sum([]int{1, 2, 3}) != 6 || Sum([]float64{0.5, 0.25}) != 0.75 || Sum([]int8{127, 1}) != -128 {
		t.Fatal("Sum")
	}
	if got := Swap(Pair[string, int]{"a", 1}); got.Key != 1 || got.Val != "a" {
		t.Fatal("Swap")
	}
}

func TestDeferRecover(t *testing.T) {
	if err := Safe(func() { var m map[string]int; m["x"] = 1 }); err == nil {
		t.Fatal("nil map write not recovered")
	}
	if err := Safe(func() {}); err != nil {
		t.Fatal(err)
	}
	if err := Safe(func() { _ = Divide([]int{1}, 0, 0) }); err == nil {
		t.Fatal("division by zero not recovered")
	}
	if err := Safe(func() { _ = Divide([]int{1}, 1, 3) }); err == nil {
		t.Fatal("index out of range not recovered")
	}
}

func TestAddressTaken(t *testing.T) {
	if Bump(3) != 5 {
		t.Fatalf("Bump(3) = %d, want 5", Bump(3))
	}
}

func TestControl(t *testing.T) {
	if d, r := Digits("12 ab "); d != 2 || r != 4 {
		t.Fatalf("Digits = %d, %d; want 2, 4", d, r)
	}
	if d, r := Digits("345"); d != 3 || r != 0 {
		t.Fatalf("Digits = %d, %d; want 3, 0", d, r)
	}
	if Collatz(27) != 111 {
		t.Fatal("Collatz")
	}
	for _, c := range []struct{ target, i, j int }{{12, 2, 6}, {81, 9, 9}, {97, -1, -1}, {1, 1, 1}} {
		if i, j := Grid(c.target); i != c.i || j != c.j {
			t.Errorf("Grid(%d) = %d, %d", c.target, i, j)
		}
	}
	want := map[int]string{100: "AB", 95: "AB", 85: "B", 70: "C", 61: "C", 10: "F", -5: "F"}
	for score, g := range want {
		if got := Grade(score); got != g {
			t.Errorf("Grade(%d) = %q, want %q", score, got, g)
		}
	}
	for v, d := range map[any]string{nil: "nil", 1: "int 2", "s": "text s", 2.5: "other"} {
		if got := Describe(v); got != d {
			t.Errorf("Describe(%v) = %q", v, got)
		}
	}
	if Describe(errors.New("e")) != "error e" || Describe([]byte("b")) != "text [98]" {
		t.Error("Describe")
	}
}

func TestMethodsAndClosures(t *testing.T) {
	var c Counter
	inc := c.Inc
	for range 5 {
		inc()
	}
	if c.Peek() != 5 || c.hist != [4]int{4, 5, 2, 3} {
		t.Fatalf("Counter %+v", c)
	}
	sq := func(x int) int { return x * x }
	if got := Apply(sq, 1, 2, 3); !slices.Equal(got, []int{1, 4, 9}) {
		t.Fatal(got)
	}
	add := func(x int) int { return x + c.Inc() }
	if got := Apply(add, []int{10, 20}...); !slices.Equal(got, []int{16, 27}) {
		t.Fatal(got)
	}
}

func TestRanges(t *testing.T) {
	if r, b, last := Runes("héllo, 世界\xff"); r != 10 || b != 14 || last != '\uFFFD' {
		t.Fatalf("Runes = %d %d %q", r, b, last)
	}
	if !slices.Equal(Keys(map[string]int{"b": 1, "a": 2}), []string{"a", "b"}) {
		t.Fatal("Keys")
	}
	var evens []int
	for e := range Evens(9) {
		if e > 6 {
			break
		}
		evens = append(evens, e)
	}
	if !slices.Equal(evens, []int{0, 2, 4, 6}) {
		t.Fatal(evens)
	}
	if Shadow([]int{1, 2, 3}) != 3 {
		t.Fatal("Shadow")
	}
}

func TestMaps(t *testing.T) {
	if got, want := Maps(5, 7, "k"), "true 2 onetwo true 2 true true"; got != want {
		t.Fatalf("Maps = %q, want %q", got, want)
	}
	if got, want := Maps(5, 7, "x"), "true 2 onetwo false 2 true false"; got != want {
		t.Fatalf("Maps with a colliding key = %q, want %q", got, want)
	}
}

func TestStructsInMaps(t *testing.T) {
	if got := StructsInMaps(4); got != 0 {
		t.Fatalf("StructsInMaps(4) = %d, want 0", got)
	}
}

func TestCopiesAndOrder(t *testing.T) {
	if n, err := Copies(); err != nil || n != 30 {
		t.Fatal(n, err)
	}
	if got, want := Order(), "a,b,c,k,v,e0,e1,i,r1,r20 map[1:2] [5 1] 6"; got != want {
		t.Fatalf("Order() = %q, want %q", got, want)
	}
}

func TestShortCircuit(t *testing.T) {
	for _, c := range []struct {
		a, b int
		want string
	}{
		{1, 1, "x,y,then"}, {1, -1, "x,y,z,p,q"}, {0, 0, "x,z,then"}, {-1, 2, "x,z,p"}, {0, 1, "x,z,p,q,r"},
	} {
		if got := ShortCircuit(c.a, c.b); got != c.want {
			t.Errorf("ShortCircuit(%d, %d) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}

func TestSharedLoopVariables(t *testing.T) {
	if got := SharedCaptures([]int{1, 2, 3}); !slices.Equal(got, []int{3, 3, 3}) {
		t.Fatalf("SharedCaptures = %v, want the last element three times (Go 1.21 semantics)", got)
	}
	if !SharedAddresses("abc") {
		t.Fatal("the range variable of a Go 1.21 file is not shared")
	}
	if !SharedReceivers(make([]Tally, 3)) {
		t.Fatal("the range variable of a Go 1.21 file is not shared by pointer-method calls")
	}
}

// Calls the rewrite hoists out of an expression still report their own
// line to runtime.Caller.
func TestCallerLines(t *testing.T) {
	_, _, here, _ := runtime.Caller(0)
	a := Line() + 0
	b := max(Line(), 0)
	if c := []int{Line()}; a != here+1 || b != here+2 || c[0] != here+3 {
		t.Fatalf("lines %d, %d, %d; want %d, %d, %d", a, b, c[0], here+1, here+2, here+3)
	}
}

func TestChannels(t *testing.T) {
	for n, want := range map[int][]int{
		0:  {0, 0, 16},
		3:  {0, 2, 16, 2, 0, 0, 0},
		16: {0, 15, 16, 5, 5, 7, 9, 11, 15, 0, 0},
	} {
		if got := Channels(n); !slices.Equal(got, want) {
			t.Errorf("Channels(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestStructKeys(t *testing.T) {
	for _, in := range []struct {
		a, b int
		s    string
	}{{1, 2, "x"}, {2, 1, ""}, {3, 3, "yz"}} {
		t.Log(StructKeys(in.a, in.b, in.s))
	}
	if got, want := StructKeys(1, 2, "x"), "1 true 4 x true 2 3 3 true 11"; got != want {
		t.Errorf("StructKeys(1, 2, x) = %q, want %q", got, want)
	}
}

func TestMinMax(t *testing.T) {
	if got, want := MinMax(3, -4, -8, 65535, "x", "go"), `-4 7 -3 0 "go" "x" 1.5`; got != want {
		t.Errorf("MinMax = %q, want %q", got, want)
	}
	if got, want := MinMax(9, 8, 5, 2, "", "z"), `8 9 5 2 "" "z" 1.5`; got != want {
		t.Errorf("MinMax = %q, want %q", got, want)
	}
}

func TestClear(t *testing.T) {
	if got, want := Clear(4, "x"), "[0 0 0] 0 [{0 0} {0 0}] 1 3"; got != want {
		t.Errorf("Clear = %q, want %q", got, want)
	}
}
