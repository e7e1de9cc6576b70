package rt

import (
	"bytes"
	"io"
	"reflect"
	"testing"
	"unsafe"
)

// readerInput builds the io.Reader input of a one-parameter layout from
// the bytes data (the length bound 4), as the worker does.
func readerInput(t *testing.T, data string) *reader {
	t.Helper()
	l := &Layout{Params: []Param{{Name: "r", Shape: 0}}, Shapes: []Shape{{Kind: ShapeReader, Type: "io.Reader"}}, MaxLen: 4}
	if err := checkLayout(l, []reflect.Type{reflect.TypeFor[io.Reader]()}, nil); err != nil {
		t.Fatal(err)
	}
	leaves, err := l.Leaves()
	if err != nil {
		t.Fatal(err)
	}
	if len(leaves) != 5 || !leaves[0].IsLen || leaves[0].Path != "len(r)" || leaves[2].Path != "r[1]" || leaves[2].K != KUint8 {
		t.Fatalf("leaves = %+v, want len(r) and 4 bytes", leaves)
	}
	vals := make([]Value, len(leaves))
	vals[0].Bits = uint64(len(data))
	for i := 0; i < len(data); i++ {
		vals[1+i].Bits = uint64(data[i])
	}
	for i, lf := range leaves {
		cur.inputs = append(cur.inputs, mk(Node{Op: OpInput, K: lf.K, Val: uint64(i)}))
	}
	b := newBuilder(l, l.Choices(), nil, vals)
	v, _ := b.arg(0, reflect.TypeFor[io.Reader]())
	r, ok := v.Interface().(*reader)
	if !ok {
		t.Fatalf("the input is a %T", v.Interface())
	}
	return r
}

// TestReaderCopiesShadows: a Read called by instrumented code (announced
// as an interface method call) copies the bytes' shadows into the buffer,
// gives n a shadow and records how much it read, without a
// concretization; the last read reports io.EOF.
func TestReaderCopiesShadows(t *testing.T) {
	begin(t)
	r := readerInput(t, "GIF")
	buf := make([]byte, 2)
	Call(0, Arg{}, Arg{})
	n, err := r.Read(buf)
	if n != 2 || err != nil || string(buf) != "GI" {
		t.Fatalf("Read = %d, %v, %q", n, err, buf)
	}
	for i := range buf {
		s := Ld(uintptr(unsafe.Pointer(&buf[i])), uint64(buf[i]))
		if s == 0 || cur.nodes[s].Op != OpInput || cur.nodes[s].Val != uint64(1+i) {
			t.Fatalf("buf[%d] has shadow %v, want input leaf %d", i, s, 1+i)
		}
	}
	// A full read: len(p) is a constant, so is n.
	if s := Res(0, 0, uint64(n)); s != 0 {
		t.Errorf("n of a full read has shadow %v", s)
	}
	Call(0, Arg{}, Arg{})
	n, err = r.Read(buf)
	if n != 1 || err != nil || buf[0] != 'F' {
		t.Fatalf("second Read = %d, %v, %q", n, err, buf)
	}
	// A short read: n is len(r) - 2.
	if s := Res(0, 0, uint64(n)); s == 0 || cur.nodes[s].Op != OpSub {
		t.Errorf("n of a short read has shadow %v, want len - off", s)
	}
	Call(0, Arg{}, Arg{})
	if n, err := r.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("third Read = %d, %v, want 0, EOF", n, err)
	}
	// off < len: true, true, false; len(p) <= len - off: true, false.
	var got []bool
	for _, e := range cur.events {
		if !e.Implicit || e.Site != InputSite || e.Cond == 0 {
			t.Fatalf("event %+v is not an implicit input decision", e)
		}
		got = append(got, e.Taken)
	}
	if want := []bool{true, true, true, false, false}; !reflect.DeepEqual(got, want) {
		t.Errorf("decisions %v, want %v", got, want)
	}
	if len(cur.conc) != 0 {
		t.Errorf("concretizations %v", cur.conc)
	}
}

// TestReaderUnfollowed: a Read called by the standard library (no frame
// announced, or a stale one) records a concretization; so does io.ReadAll
// called without its model. The model returns the bytes with shadows.
func TestReaderUnfollowed(t *testing.T) {
	t.Run("ReadAll", func(t *testing.T) {
		begin(t)
		r := readerInput(t, "ab")
		if b, err := io.ReadAll(r); string(b) != "ab" || err != nil {
			t.Fatalf("io.ReadAll = %q, %v", b, err)
		}
		if len(cur.conc) == 0 {
			t.Error("a read by io.ReadAll recorded no concretization")
		}
	})
	t.Run("stale frame", func(t *testing.T) {
		begin(t)
		r := readerInput(t, "ab")
		// A frame of the right shape, announced for a call nobody took.
		Call(0, Arg{}, Arg{})
		var out bytes.Buffer
		if n, err := io.Copy(&out, io.MultiReader(r)); n != 2 || err != nil {
			t.Fatalf("io.Copy = %d, %v", n, err)
		}
		if len(cur.conc) == 0 {
			t.Error("a read by io.Copy after a stale frame recorded no concretization")
		}
	})
	t.Run("no frame", func(t *testing.T) {
		begin(t)
		r := readerInput(t, "ab")
		buf := make([]byte, 4)
		if n, _ := r.Read(buf); n != 2 {
			t.Fatalf("Read = %d", n)
		}
		if len(cur.conc) == 0 {
			t.Error("an unannounced Read recorded no concretization")
		}
	})
	t.Run("model", func(t *testing.T) {
		begin(t)
		r := readerInput(t, "xyz")
		Call(0, Arg{}, Arg{})
		if n, _ := r.Read(make([]byte, 1)); n != 1 {
			t.Fatalf("Read = %d", n)
		}
		Call(idIoReadAll, Arg{})
		b, err := IoReadAll(r)
		if string(b) != "yz" || err != nil {
			t.Fatalf("IoReadAll = %q, %v", b, err)
		}
		if s := Res(idIoReadAll, 0, uint64(len(b))); s == 0 {
			t.Error("the result's length has no shadow")
		}
		for i := range b {
			if s := Ld(uintptr(unsafe.Pointer(&b[i])), uint64(b[i])); s == 0 || cur.nodes[s].Val != uint64(2+i) {
				t.Errorf("b[%d] has shadow %v, want leaf %d", i, s, 2+i)
			}
		}
		if len(cur.conc) != 0 {
			t.Errorf("concretizations %v", cur.conc)
		}
		// At the end, as io.ReadAll: empty, not nil.
		Call(idIoReadAll, Arg{})
		if b, err := IoReadAll(r); b == nil || len(b) != 0 || err != nil {
			t.Fatalf("IoReadAll at the end = %#v, %v", b, err)
		}
	})
}
