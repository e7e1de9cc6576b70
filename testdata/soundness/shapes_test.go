package soundness

import "testing"

func PutCapturedByCheck(t *testing.T, n int) {
	if Code(n) {
		t.Fatalf("code %d", n)
	}
}

func PutCapturedInPUT(t *testing.T, n int) {
	check := func() {
		if n == 42 {
			t.Fatal("captured 42")
		}
	}
	check()
}

func PutClosureWritesCapture(t *testing.T, n int) {
	var hit bool
	func() { hit = n*3 == 126 }()
	if hit {
		t.Fatal("written through a closure")
	}
}

func PutSubtest(t *testing.T, s string) {
	t.Run("sub", func(t *testing.T) {
		if len(s) == 3 && s[1] == 'x' {
			t.Fatalf("subtest %q", s)
		}
	})
}

func notPanics(t *testing.T, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panicked: %v", r)
		}
	}()
	f()
}

func PutHelperCallback(t *testing.T, xs []int, i int) {
	notPanics(t, func() {
		if i >= 0 && i < 3 {
			_ = xs[i]
		}
	})
}

func PutCounter(t *testing.T, a, b int) {
	next := Counter(a)
	next(b)
	if next(1) == 10 && b == 4 {
		t.Fatal("counter reached 10")
	}
}

func PutLibraryCallback(t *testing.T, n uint8) {
	if Once(n) {
		t.Fatal("once hit")
	}
}

func PutSortCallback(t *testing.T, xs []int, pivot int) {
	if len(xs) == 2 && pivot == 5 && Rank(xs, pivot) {
		t.Fatal("pivot first")
	}
}

func PutMethodValue(t *testing.T, limit, v int) {
	over := Gauge{Limit: limit}.Over
	if over(v) && v == -5 {
		t.Fatal("over at -5")
	}
}

func PutMethodValuePointer(t *testing.T, limit, v int) {
	g := &Gauge{Limit: limit}
	under := g.Under
	if under(v) && v == 5 {
		t.Fatal("under at 5")
	}
}

func PutDeferredClosure(t *testing.T, n int) {
	if Recovered(n) == 99 {
		t.Fatal("recovered seven")
	}
}

func PutDeferInPUT(t *testing.T, n int) {
	defer func() {
		if n == -5 {
			t.Error("deferred check")
		}
	}()
}

func PutGenericMax(t *testing.T, a, b int) {
	if Max(a, b) == 1000 && a < b {
		t.Fatal("max 1000")
	}
}

func PutGenericString(t *testing.T, a, b string) {
	if Max(a, b) == "zz" {
		t.Fatal("max zz")
	}
}

func PutGenericLeading(t *testing.T, s string, b []byte) {
	if LeadingDigits(s) == 2 && LeadingDigits(b) == 1 {
		t.Fatal("two and one digits")
	}
}

func PutGenericStack(t *testing.T, a, b int) {
	var s Stack[int]
	s.Push(a)
	s.Push(b)
	v, _ := s.Pop()
	if v == 17 {
		t.Fatal("popped 17")
	}
}

// PutIndexOutOfRangeFirst starts out of range (the zero input: no
// element, index 0): the bounds check must be recorded before the element
// is read, or the run panics without a branch and the search stops there.
func PutIndexOutOfRangeFirst(t *testing.T, xs []string, i int) {
	if Word(xs, i) == "go" {
		t.Fatalf("go at %d", i)
	}
}

// PutTrimmed slices an input below its length: the capacity bound of
// xs[:len(xs)-1] must follow the input's length (an input's capacity is its
// length), not stay the constant of the run that recorded it, or the
// longer inputs look out of range and the runs diverge.
func PutTrimmed(t *testing.T, xs []int) {
	if len(xs) == 0 {
		return
	}
	if ys := xs[:len(xs)-1]; len(ys) == 2 {
		t.Fatal("trimmed to two")
	}
}

// PutPopLast reads the last element of an input through a symbolic index
// (len-1): the selection must cover the elements of longer inputs too (their
// leaves), or a child run with another length reads another element than
// its path condition says, and diverges.
func PutPopLast(t *testing.T, items []int) {
	if x, ok := Pop(&items); ok && x == 7 && len(items) == 1 {
		t.Fatal("popped 7 leaving one")
	}
}

// PutPointerAt reads a pointer at a symbolic index: the run must choose the
// index (its path condition says which slot it read), or the first run's
// nil slot ends the search with one path and an "exhaustive" verdict.
func PutPointerAt(t *testing.T, i int) {
	slots := Table()
	if i < 0 || i >= len(slots) {
		return
	}
	if slots[i] != nil {
		t.Fatalf("slot %d is set", i)
	}
}

// PutFieldAt reads a field of a struct element at a symbolic index.
func PutFieldAt(t *testing.T, i int) {
	names := Names()
	if i < 0 || i >= len(names) {
		return
	}
	if len(names[i].Name) == 2 {
		t.Fatalf("name %d has two bytes", i)
	}
}

// PutStoreAt stores at a symbolic index and reads at another: which slot a
// read finds depends on both.
func PutStoreAt(t *testing.T, i, j int) {
	slots := make([]*Slot, 3)
	if i < 0 || i >= 3 || j < 0 || j >= 3 {
		return
	}
	slots[i] = &Slot{}
	if slots[j] != nil && j == 2 {
		t.Fatal("stored at 2")
	}
}

// PutAddressAt takes the address of an integer element at a symbolic index
// and writes through it.
func PutAddressAt(t *testing.T, i int) {
	counts := []int{5, 5, 5}
	if i < 0 || i >= len(counts) {
		return
	}
	Bump(&counts[i])
	if counts[1] == 6 {
		t.Fatal("bumped the middle")
	}
}

// PutConstantIndex reads an element at a constant index of an input slice:
// the bounds check depends on the input's length (the zero input panics,
// and the panic is recovered, before any branch).
func PutConstantIndex(t *testing.T, xs [][2]byte) {
	defer func() { recover() }()
	if xs[2][0] == 'x' {
		t.Fatal("third starts with x")
	}
}

// PutChainedRecords reads a record whose offset was computed from lengths
// read at offsets computed the same way: the index of the third record's
// tag holds two values read at symbolic indexes. The run chooses such an
// index (one run per value) rather than selecting among selections, so
// the failing input is found and the verdict stays exact.
func PutChainedRecords(t *testing.T, msg []byte) {
	if tags, ok := Tags(msg); ok && len(tags) == 3 && tags[2] == 'z' {
		t.Fatal("third record tagged z")
	}
}

// PutChainedText is PutChainedRecords over a string: a byte of a string
// read at an index computed from a byte read at a symbolic index.
func PutChainedText(t *testing.T, msg string) {
	if tags, ok := TagsIn(msg); ok && len(tags) == 3 && tags[2] == 'z' {
		t.Fatal("third record tagged z")
	}
}

// PutFarRead reads a byte of a long slice at a symbolic offset past the
// first 64 elements: the run chooses the window of elements that holds it
// and selects within it, so every offset is reached without a choice per
// value or a concretization (a pinned offset once made the verdict
// inexact and left the failing input to mutation).
func PutFarRead(t *testing.T, msg []byte) {
	if len(msg) < 2 || int(msg[0]) >= len(msg) {
		return
	}
	if Frame(msg)[120+int(msg[0])] == 'w' {
		t.Fatal("w in the frame")
	}
}

// PutStructResult reads fields of a struct that a call returned beside
// other results, assigned to a field and passed on by value: the struct's
// cells once stayed empty there, the switch on its kind had no condition,
// and the target was reported exhaustive with its failing input missed.
func PutStructResult(t *testing.T, b []byte) {
	r, err := ParseRecord(b)
	if err != nil {
		return
	}
	if KindName(r.Header) == "HTTPS" && r.Header.Size == 9 {
		t.Fatal("HTTPS record of size 9")
	}
}

// PutStructResultDefine declares the struct result of a call with
// several results.
func PutStructResultDefine(t *testing.T, b []byte) {
	h, _, err := ParseHeader(b)
	if err == nil && h.Size == 200 {
		t.Fatal("size 200")
	}
}

// PutStructResultVar declares it with var.
func PutStructResultVar(t *testing.T, b []byte) {
	var h, _, err = ForwardHeader(b)
	if err == nil && h.Kind == 0x4142 {
		t.Fatal("kind AB")
	}
}

// PutStructResultElem stores it in an array element and a field through
// a pointer.
func PutStructResultElem(t *testing.T, b []byte) {
	var hs [2]Header
	var err error
	hs[1], _, err = ParseHeader(b)
	var r Reader
	if err == nil && r.Read(b[1:]) == nil && r.Last().Size == 7 && hs[1].Size == 6 {
		t.Fatal("sizes 6 and 7")
	}
}

// PutStructResultMap stores it in a map element, where dowse keeps no
// cells: the target must not be reported exhaustive.
func PutStructResultMap(t *testing.T, b []byte) {
	m := map[int]Header{}
	var err error
	m[1], _, err = ParseHeader(b)
	if err == nil && m[1].Size == 5 {
		t.Fatal("size 5")
	}
}

// PutLabel compares a string converted from a slice of symbolic length:
// the length is chosen like an index, so every length in range has its
// run and the verdict stays exact (it was pinned to the seed's length
// with a concretization).
func PutLabel(t *testing.T, b []byte) {
	if s, ok := Label(b); ok && s == "ok" {
		t.Fatal("label ok")
	}
}

// PutLabelArg passes a string converted from the input to a function:
// the argument's fingerprint and the argument are one conversion.
func PutLabelArg(t *testing.T, b []byte) {
	if IsOK(string(b)) {
		t.Fatal("ok")
	}
}

// PutQuoted compares a concatenation a function returned: like a
// conversion, it allocates, and evaluated twice it lost its shadow (one
// run, reported exhaustive).
func PutQuoted(t *testing.T, s string) {
	if Quote(s) == "<<ok>>" {
		t.Fatal("quoted ok")
	}
}

// PutSentOnChannel receives a byte it sent on a channel: the channel's
// buffer keeps no shadow, so the send records a concretization (it was
// reported exhaustive after two runs, its failing input missed).
func PutSentOnChannel(t *testing.T, b byte) {
	c := make(chan byte, 1)
	c <- b
	if <-c == 'q' {
		t.Fatal("q received")
	}
}

// PutStructOnChannel does the same with a struct.
func PutStructOnChannel(t *testing.T, b []byte) {
	if h, _, err := ParseHeader(b); err == nil && Relay(h).Size == 4 {
		t.Fatal("size 4 relayed")
	}
}

// PutPointerLiteral reads a field of a struct built by an elided &Header{}
// in a slice literal: its fields had no cells (one run, exhaustive).
func PutPointerLiteral(t *testing.T, kind uint16) {
	if Rows(kind)[0].Kind == 0x41 {
		t.Fatal("kind 0x41 in a row")
	}
}

// PutMapOfStructs, PutMapOfPointers and PutMapOfSlices read values of map
// literals, whose shadows and cells the map does not keep: a
// concretization where they were lost without a word.
func PutMapOfStructs(t *testing.T, kind uint16) {
	if NewIndex(kind, nil).ByName["h"].Kind == 0x42 {
		t.Fatal("kind 0x42 by name")
	}
}

func PutMapOfPointers(t *testing.T, kind uint16) {
	if NewIndex(kind, nil).Refs["h"].Kind == 0x43 {
		t.Fatal("kind 0x43 by reference")
	}
}

func PutMapOfSlices(t *testing.T, raw []byte) {
	if len(NewIndex(0, raw).Raw["h"]) == 3 {
		t.Fatal("three raw bytes")
	}
}

// PutStructsEqual and PutArraysEqual compare structs and arrays with ==:
// the comparison had no condition (found in neither, both exhaustive).
func PutStructsEqual(t *testing.T, b []byte) {
	if First(b) == (Header{Kind: 0x0102, Size: 3}) {
		t.Fatal("header 1.2/3")
	}
}

func PutArraysEqual(t *testing.T, x, y byte) {
	if [2]byte{x, y} == [2]byte{'o', 'k'} {
		t.Fatal("ok")
	}
}

// PutCopiedPrefix reads an array that copy filled from the input: which
// elements copy wrote depends on the input's length (one run, exhaustive).
func PutCopiedPrefix(t *testing.T, b []byte) {
	if a, n := Fixed(b); n == 4 && a[3] == 'w' {
		t.Fatal("w copied")
	}
}

// PutBoxedDecl converts the input to an interface in a var declaration
// (`var x any = v`), which once recorded nothing; the interface's copy
// keeps the struct's cells now, and the assertion back reads them.
func PutBoxedDecl(t *testing.T, b []byte) {
	if h, ok := Boxed(b).(Header); ok && h.Size == 9 {
		t.Fatal("boxed size 9")
	}
}

// PutDeferredResult reads a result a deferred function set after the
// return statement: its shadow was the return statement's (one run,
// exhaustive); a concretization now.
func PutDeferredResult(t *testing.T, size uint8) {
	if Patched(size).Size == 77 {
		t.Fatal("patched to 77")
	}
}
