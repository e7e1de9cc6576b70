package rt

import (
	"reflect"
	"unsafe"
)

// Channel inputs (ShapeChan).
//
// A channel the target can receive from is built buffered, holding len
// solved elements (len is a leaf), and closed. The values that cross it
// lose their shadows (the channel's buffer has no cells), so the
// instrumenter reports every receive it rewrites (<-ch, v, ok := <-ch and
// range over a channel): Recv and RecvOk find the input channel by its
// runtime pointer, record whether the k-th receive got an element, "k <
// len" (false once the channel is drained: the receive got the zero
// value, ok false, and a range ends), and hand over the shadow of element
// k (RecvSh). len(ch) and cap(ch) of an input channel get shadows too
// (ChanLen, ChanCap).
//
// Soundness: a receive the instrumenter did not rewrite (a select case,
// uninstrumented code that got the channel) takes an element without
// telling. Each followed receive, and the end of the run, compares the
// channel's length with the elements the followed receives left: a
// difference records a concretization and the channel is not followed any
// further. A channel handed to a function dowse does not follow records one
// at once (ChanLost). And at the end of the run, a channel whose end no
// followed receive saw records whether elements were left ("k < len", k
// the receives followed), since code dowse does not follow may have seen
// it closed; it is recorded either way, so that runs with the other answer
// have the same branches.

// chanState is what the run knows of an input channel.
type chanState struct {
	ch    reflect.Value
	n     int   // the elements it was built with
	lenS  S     // the shadow of n, the length leaf
	elems []Arg // the shadows of the elements, in order
	got   int   // the followed receives so far
	ended bool  // a followed receive found it drained
	lost  bool  // a receive was not followed: nothing more is believed
}

// fillChan sets v, a channel of shape sh (see Layout): a send-only one is
// empty with room for MaxLen values; another holds the first len elements
// and is closed.
func (b *builder) fillChan(v reflect.Value, sh *Shape) {
	t := v.Type()
	both := reflect.ChanOf(reflect.BothDir, t.Elem())
	if sh.Send {
		ch := reflect.MakeChan(both, b.l.MaxLen)
		if lock() {
			if cur.outChans == nil {
				cur.outChans = map[unsafe.Pointer]bool{}
			}
			cur.outChans[ch.UnsafePointer()] = true
			unlock()
		}
		v.Set(ch.Convert(t))
		return
	}
	x, s := b.take()
	n := int(x.Bits)
	if n < 0 || n > b.l.Slots(sh) {
		n = 0
	}
	ch := reflect.MakeChan(both, n)
	st := &chanState{ch: ch, n: n, lenS: s}
	lost := false
	for i := 0; i < b.l.Slots(sh); i++ {
		if b.choices[sh.Elem] && i <= n {
			record(Event{Site: InputSite, Taken: i < n, Cond: Cmp(OpLt, KInt, 0, uint64(i), s, uint64(n))})
		}
		if i >= n {
			b.skip(sh.Elem)
			continue
		}
		e := reflect.New(t.Elem())
		es, fp := b.fill(e.Elem(), sh.Elem)
		switch t.Elem().Kind() {
		case reflect.Array, reflect.Struct:
			// Sent by value: the cells of its parts stay behind.
			lost = lost || cellsIn(e.Pointer(), t.Elem().Size())
		}
		st.elems = append(st.elems, Arg{S: es, F: fp})
		ch.Send(e.Elem())
	}
	if lost {
		Conc(InputSite, "the parts of the elements of an input channel")
	}
	ch.Close()
	if lock() {
		if cur.chans == nil {
			cur.chans = map[unsafe.Pointer]*chanState{}
		}
		cur.chans[ch.UnsafePointer()] = st
		cur.chanList = append(cur.chanList, st)
		unlock()
	}
	v.Set(ch.Convert(t))
}

// chanOf is the state of the input channel ch, nil if ch is not one or is
// no longer followed.
func chanOf(ch any) *chanState {
	if !on.Load() || len(cur.chans) == 0 {
		return nil
	}
	v := reflect.ValueOf(ch)
	if v.Kind() != reflect.Chan || !lock() {
		return nil
	}
	st := cur.chans[v.UnsafePointer()]
	unlock()
	if st == nil || st.lost {
		return nil
	}
	return st
}

// left is the number of elements the followed receives left in st's
// channel.
func (st *chanState) left() int { return max(st.n-st.got, 0) }

// lose records that a receive from st's channel was not followed.
func (st *chanState) lose(site uint32, why string) {
	st.lost = true
	Conc(site, why)
}

// RecvOk is called right after instrumented code received from ch (ok
// says whether the receive got an element) where the condition is
// recorded by the caller (a range loop's branch): for an input channel it
// returns the shadow of "this receive got an element", k < len, and keeps
// the element's shadow for RecvSh; 0 otherwise.
func RecvOk(ch any, ok bool) S {
	cur.recvd = Arg{}
	st := chanOf(ch)
	if st == nil {
		return 0
	}
	k := st.got
	st.got++
	if ok != (k < st.n) || st.ch.Len() != st.left() {
		st.lose(0, "an input channel received from by code that dowse does not follow")
		return 0
	}
	if ok {
		cur.recvd = st.elems[k]
	} else {
		st.ended = true
	}
	return Cmp(OpLt, KInt, 0, uint64(k), st.lenS, uint64(st.n))
}

// Recv is RecvOk for a receive whose outcome no branch of the code
// records (x := <-ch, v, ok := <-ch): it records k < len as an implicit
// branch at site, and returns its shadow (ok's).
func Recv(site uint32, ch any, ok bool) S {
	c := RecvOk(ch, ok)
	Imp(site, ok, c)
	return c
}

// RecvSh is the shadow of the value the last Recv or RecvOk got, if it
// has fingerprint fp.
func RecvSh(fp uint64) S {
	if r := cur.recvd; r.S != 0 && r.F == fp && on.Load() {
		return r.S
	}
	return 0
}

// ChanLen is the shadow of len(ch).
func ChanLen(ch any) S {
	st := chanOf(ch)
	if st == nil {
		return 0
	}
	if st.ch.Len() != st.left() {
		st.lose(0, "an input channel received from by code that dowse does not follow")
		return 0
	}
	if st.ended {
		return 0 // drained: the recorded receives say len == n
	}
	return Bin(OpSub, KInt, st.lenS, uint64(st.n), 0, uint64(st.got))
}

// ChanCap is the shadow of cap(ch): an input channel's capacity is its
// length.
func ChanCap(ch any) S {
	if st := chanOf(ch); st != nil {
		return st.lenS
	}
	return 0
}

// ChanLost records a concretization at site when ch, an input channel
// that may still be received from, goes to code dowse does not follow.
func ChanLost(site uint32, ch any, why string) {
	if st := chanOf(ch); st != nil && !st.ended {
		st.lose(site, why)
	}
}

// endChans checks the input channels at the end of a run (see the comment
// at the top of this file).
func endChans() {
	for _, st := range cur.chanList {
		if !st.lost && st.ch.Len() != st.left() {
			st.lose(0, "an input channel received from by code that dowse does not follow")
		}
		if st.ended {
			continue
		}
		if cur.maxEvents > 0 && len(cur.events) >= cur.maxEvents {
			// No room for the branch (recording it would stop the run).
			st.lose(0, "the end of an input channel")
			continue
		}
		// Whether the followed receives left elements: recorded whatever
		// the answer, so that a run with the other answer has the same
		// branches.
		decide(st.left() > 0, Cmp(OpLt, KInt, 0, uint64(st.got), st.lenS, uint64(st.n)))
	}
}

// Sent is called before instrumented code sends a value whose shadow is s
// on ch. The channel's buffer has no cells, so the receiver gets the value
// without its shadow, and a branch on it has no condition: a concretization
// is recorded at site, so that the verdict does not claim every path. A
// send-only input channel is the exception: only the test, after the run,
// receives from it.
func Sent(site uint32, ch any, s S) {
	if s != 0 && !outChan(ch) {
		Conc(site, "sent on a channel")
	}
}

// SentElems is Sent for a struct or array value of size bytes at p, whose
// cells stay behind.
func SentElems(site uint32, ch any, p unsafe.Pointer, size uintptr) {
	if on.Load() && !outChan(ch) && cellsIn(uintptr(p), size) {
		Conc(site, "sent on a channel")
	}
}

// outChan reports whether ch is a send-only input channel.
func outChan(ch any) bool {
	if !on.Load() || len(cur.outChans) == 0 {
		return false
	}
	v := reflect.ValueOf(ch)
	if v.Kind() != reflect.Chan || !lock() {
		return false
	}
	defer unlock()
	return cur.outChans[v.UnsafePointer()]
}
