package rt

import (
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// The io.Reader input (ShapeReader).
//
// A parameter of type io.Reader gets a *reader over a solved byte string:
// its length is a leaf and so is each byte (like a []byte input), and
// each byte's shadow is in the memory cell of its element in reader.b.
// Read copies bytes into the caller's buffer with their cells and
// returns what bytes.Reader returns: n = min(len(p), remaining) and nil,
// or 0 and io.EOF at the end. Which of these it returned depends on the
// length leaf, so Read records both decisions as implicit branches of
// the run (site InputSite): "off < len" (else io.EOF) and "len(p) <= len
// - off" (else a short read). The path condition then says exactly how
// many bytes every read yielded, and n gets a shadow (len(p)'s, or
// len - off) when instrumented code called Read.
//
// Soundness: code dowse does not follow (the standard library: io.ReadAll
// without its model, bufio.Scanner, json.Decoder, ...) that reads the
// bytes branches on them, and copies them where their cells are lost,
// without recording anything. So Read asks whether its caller is
// instrumented code (readFollowed) and records a concretization when it
// is not: the verdict then cannot be "exhaustive". The model of io.ReadAll
// (IoReadAll) reads a reader of this package without calling Read.

// reader is the io.Reader the worker builds for a ShapeReader input. It has
// no other method than Read: what the generated test passes instead
// (strings.NewReader) has more (io.ByteReader, io.Seeker, io.WriterTo...),
// which code that type-asserts its reader would tell apart.
type reader struct {
	b    []byte // the bytes, with their shadows in the cells of their elements
	off  int    // the bytes already read
	lenS S      // the shadow of len(b), the length leaf
	// offS is the shadow of off (0 while it is a constant): a short read
	// leaves off at len(b), whatever the length is.
	offS S
}

// reader builds a reader of shape sh from a length leaf and a byte leaf
// per slot (see Layout).
func (b *builder) reader(sh *Shape) *reader {
	x, s := b.take()
	n := int(x.Bits)
	if n < 0 || n > b.l.Slots(sh) {
		n = 0
	}
	r := &reader{b: make([]byte, n), lenS: s}
	for i := 0; i < b.l.Slots(sh); i++ {
		x, es := b.take()
		if i >= n {
			continue
		}
		r.b[i] = byte(x.Bits)
		if es != 0 {
			St(uintptr(unsafe.Pointer(&r.b[i])), es, uint64(r.b[i]))
		}
	}
	return r
}

// Read reads like bytes.Reader.Read, copying the bytes' shadows into p (see
// the comment at the top of this file).
func (r *reader) Read(p []byte) (int, error) {
	if !on.Load() {
		if r.off >= len(r.b) {
			return 0, io.EOF
		}
		n := copy(p, r.b[r.off:])
		r.off += n
		return n, nil
	}
	followed, ps := readFollowed(p)
	if !followed && r.lenS != 0 {
		Conc(InputSite, "an io.Reader input read by code that dowse does not follow")
	}
	off, size := r.off, len(r.b)
	more := off < size
	decide(more, Cmp(OpLt, KInt, r.offS, uint64(off), r.lenS, uint64(size)))
	if !more {
		if followed {
			Ret(0, Arg{}, Arg{})
		}
		return 0, io.EOF
	}
	rest := r.rest()
	full := len(p) <= size-off
	decide(full, Cmp(OpLe, KInt, ps, uint64(len(p)), rest, uint64(size-off)))
	n := copy(p, r.b[off:])
	if n > 0 {
		CopyElems(uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(&r.b[off])), n, 1)
	}
	ns := rest
	if full {
		ns = ps
		r.offS = Bin(OpAdd, KInt, r.offS, uint64(off), ps, uint64(n))
	} else {
		r.offS = r.lenS
	}
	r.off += n
	if followed {
		Ret(0, Arg{S: ns, F: uint64(n)}, Arg{})
	}
	return n, nil
}

// rest is the shadow of the number of bytes left, len - off.
func (r *reader) rest() S {
	return Bin(OpSub, KInt, r.lenS, uint64(len(r.b)), r.offS, uint64(r.off))
}

// decide records a decision of an input (a reader at its end or not) as an
// implicit branch of the run: it is part of the path condition, so the
// search can flip it, but it does not make a path of its own.
func decide(taken bool, cond S) {
	if cond != 0 {
		record(Event{Site: InputSite, Taken: taken, Cond: cond, Implicit: true})
	}
}

// readFollowed reports whether the Read of a reader input in progress was
// called by instrumented code, which then follows the bytes through
// their shadows and the result n through the result register; ps is then
// the shadow of len(p) (0 if it has none). It takes the call's frame as
// an instrumented prologue would.
//
// Instrumented code announces a call of an interface method (rt.Call
// with function id 0) with the receiver, which has no shadow, and the
// argument p (its length's shadow, fingerprint len(p)). A pending frame
// of that shape may still be stale: announced for an earlier call of
// uninstrumented code through a func value or an interface, which no
// prologue took. Only the standard library calls Read without announcing
// a call, in practice (io.ReadAll, bufio, encoding/json): so the caller
// must also not be a function of the standard library.
func readFollowed(p []byte) (bool, S) {
	f := &cur.pending
	if !f.valid || f.fn != 0 || f.n != 2 || f.args[0] != (Arg{}) {
		return false, 0
	}
	a := f.args[1]
	if a.S == Agg || a.S != 0 && a.F != uint64(len(p)) {
		return false, 0
	}
	if stdCaller() {
		return false, 0
	}
	f.valid = false
	return true, a.S
}

// stdCaller reports whether the function that called (*reader).Read,
// which calls it, is a function of the standard library (wrappers the
// compiler generated left out).
func stdCaller() bool {
	var pcs [32]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	read := false
	for {
		fr, more := frames.Next()
		switch {
		case !read:
			read = strings.HasSuffix(fr.Function, readMethod)
		case fr.File != "<autogenerated>":
			return isStdFrame(fr)
		}
		if !more {
			return true // no caller found: do not believe the frame
		}
	}
}

// readMethod is how the name of (*reader).Read ends.
const readMethod = "/rt.(*reader).Read"

// stdSrc is the directory of the standard library's sources as this
// binary's file names spell it ("/usr/local/go/src/"), found from a
// function of package io; "" if it cannot be told.
var stdSrc = sync.OnceValue(func() string {
	fn := runtime.FuncForPC(reflect.ValueOf(io.ReadAll).Pointer())
	if fn == nil {
		return ""
	}
	file, _ := fn.FileLine(fn.Entry())
	dir, ok := strings.CutSuffix(file, "io/io.go")
	if !ok {
		return ""
	}
	return dir
})

// isStdFrame reports whether fr is a function of the standard library: its
// file is in the standard library's sources or, where those cannot be
// told (file names trimmed to package paths), its package path has no dot
// in its first element.
func isStdFrame(fr runtime.Frame) bool {
	if dir := stdSrc(); dir != "" {
		return strings.HasPrefix(fr.File, dir)
	}
	name := fr.Function
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		first, _, _ := strings.Cut(name, "/")
		return !strings.Contains(first, ".")
	}
	pkg, _, _ := strings.Cut(name, ".")
	return pkg != "main"
}

var idIoReadAll = funcID("io.ReadAll")

// IoReadAll is io.ReadAll. For a reader input it returns the rest of the
// bytes with their shadows, the result's length len - off; any other
// reader is read by io.ReadAll.
func IoReadAll(r io.Reader) ([]byte, error) {
	rd, ok := r.(*reader)
	if !ok || !on.Load() || !Enter(idIoReadAll, 1) {
		return io.ReadAll(r)
	}
	off, size := rd.off, len(rd.b)
	// As io.ReadAll: a non-nil slice with room for 512 bytes at least.
	out := append(make([]byte, 0, 512), rd.b[off:]...)
	if len(out) > 0 {
		CopyElems(uintptr(unsafe.Pointer(&out[0])), uintptr(unsafe.Pointer(&rd.b[off])), len(out), 1)
	}
	rest := rd.rest()
	rd.off, rd.offS = size, rd.lenS
	Ret(idIoReadAll, Arg{S: rest, F: uint64(len(out))}, Arg{})
	return out, nil
}
