package rt

// St records that the value at addr, whose fingerprint is fp, has shadow s.
func St(addr uintptr, s S, fp uint64) {
	if !on.Load() {
		return
	}
	if !lock() {
		return
	}
	if s == 0 {
		if len(cur.mem) > 0 {
			delete(cur.mem, addr)
		}
	} else {
		cur.mem[addr] = cell{s: s, fp: fp}
	}
	unlock()
}

// Ld returns the shadow of the value at addr whose fingerprint is fp.
func Ld(addr uintptr, fp uint64) S {
	if !on.Load() || !lock() {
		return 0
	}
	c, ok := cur.mem[addr]
	unlock()
	if !ok || c.fp != fp {
		return 0
	}
	return c.s
}

// Copy copies the shadows of the size bytes at src to dst (an aggregate
// assignment).
func Copy(dst, src, size uintptr) {
	if !on.Load() || dst == src || !lock() {
		return
	}
	defer unlock()
	if len(cur.mem) == 0 {
		return
	}
	if size > 1<<12 && uintptr(len(cur.mem)) < size {
		// Sparse: walk the cells instead of the bytes.
		var moved []uintptr
		for a := range cur.mem {
			if a >= src && a < src+size {
				moved = append(moved, a)
			}
		}
		for a := dst; a < dst+size; a++ {
			delete(cur.mem, a)
		}
		for _, a := range moved {
			cur.mem[dst+(a-src)] = cur.mem[a]
		}
		return
	}
	if dst > src && dst < src+size {
		for off := size; off > 0; off-- {
			copyCell(dst+off-1, src+off-1)
		}
		return
	}
	for off := uintptr(0); off < size; off++ {
		copyCell(dst+off, src+off)
	}
}

func copyCell(dst, src uintptr) {
	if c, ok := cur.mem[src]; ok {
		cur.mem[dst] = c
	} else {
		delete(cur.mem, dst)
	}
}

// CopyElems copies the shadows of n elements of size bytes each from src
// to dst (copy, append).
func CopyElems(dst, src uintptr, n int, size uintptr) {
	if n > 0 {
		Copy(dst, src, uintptr(n)*size)
	}
}

// LdIdx returns the shadow of the element at addr (fingerprint fp) of an
// index expression whose bounds check was recorded by ok (see Index).
func LdIdx(ok bool, addr uintptr, fp uint64) S {
	return Ld(addr, fp)
}

// Idx records the bounds check of x[i] like Index and returns true, so
// that it can stand first in LdIdx's arguments.
func Idx(site uint32, ki Kind, i S, iv uint64, n S, nv uint64) bool {
	Index(site, ki, i, iv, n, nv)
	return true
}

var escapeSink any
var escapeNever bool

// Escape makes the variable p points to live on the heap. The instrumenter
// calls it for local arrays and structs whose elements carry shadows in
// memory cells: cells are keyed by address, and a variable on a goroutine
// stack moves when the stack grows. Heap objects do not move.
func Escape(p any) {
	if escapeNever {
		escapeSink = p
	}
}

// growStack makes the calling goroutine's stack large, so that the runs on
// it rarely grow (and so move) it.
//
//go:noinline
func growStack(n int) byte {
	var pad [16 << 10]byte
	if n > 0 {
		pad[n%len(pad)] = byte(n) + growStack(n-1)
	}
	return pad[0]
}
