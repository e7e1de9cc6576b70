package rt

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Models of the methods of strings.Builder. The shadow of a builder's
// content (a concatenation of the shadows of what was written) is kept in
// a side table keyed by the builder, with the content it describes: a
// builder is append-only until Reset, so an entry whose content is still
// the start of the builder's, in the same buffer, holds for that start,
// and what follows was written by code dowse does not follow (with
// concrete arguments, or that code recorded a concretization): a
// constant. Content that is no longer the entry's (a Reset or a
// reallocation by such code) loses the entry, with a concretization if it
// had a shadow. The table holds the builders' pointers, so a builder
// whose address a model receives lives on the heap and keeps its address.

var (
	idBuilderWriteString = funcID("(*strings.Builder).WriteString")
	idBuilderWriteByte   = funcID("(*strings.Builder).WriteByte")
	idBuilderWriteRune   = funcID("(*strings.Builder).WriteRune")
	idBuilderString      = funcID("(*strings.Builder).String")
	idBuilderLen         = funcID("(*strings.Builder).Len")
	idBuilderReset       = funcID("(*strings.Builder).Reset")
	idBuilderGrow        = funcID("(*strings.Builder).Grow")
)

// builderEntry is the shadow s of the content str of a builder.
type builderEntry struct {
	s   S
	str string
}

// builderShadow is the shadow of b's content, 0 where it is concrete.
func builderShadow(b *strings.Builder) S {
	if !lock() {
		return 0
	}
	e, ok := cur.builders[b]
	unlock()
	if !ok {
		return 0
	}
	now := b.String()
	switch {
	case len(now) == len(e.str) && unsafe.StringData(now) == unsafe.StringData(e.str):
		return e.s
	case len(now) > len(e.str) && unsafe.StringData(now) == unsafe.StringData(e.str):
		return mk(Node{Op: OpConcat, K: KString, A: e.s, B: strConst(now[len(e.str):])})
	}
	Conc(0, "a strings.Builder rewritten by code dowse does not follow")
	return 0
}

// builderAppend records that piece (shadow ps; 0 where it is concrete)
// was appended to b, whose content before had shadow old.
func builderAppend(b *strings.Builder, old S, ps S, piece string) {
	if old == 0 && ps == 0 {
		return
	}
	now := b.String()
	prev := now[:len(now)-len(piece)]
	s := mk(Node{Op: OpConcat, K: KString, A: orStr(old, prev), B: orStr(ps, piece)})
	if lock() {
		if cur.builders == nil {
			cur.builders = make(map[*strings.Builder]builderEntry)
		}
		cur.builders[b] = builderEntry{s: s, str: now}
		unlock()
	}
}

// StringsBuilderWriteString is (*strings.Builder).WriteString.
func StringsBuilderWriteString(b *strings.Builder, s string) (int, error) {
	if !on.Load() || !Enter(idBuilderWriteString, 2) {
		return b.WriteString(s)
	}
	ss := In(1, FS(s))
	old := builderShadow(b)
	n, err := b.WriteString(s)
	builderAppend(b, old, ss, s)
	Ret(idBuilderWriteString, Arg{S: StrLen(ss), F: uint64(n)}, Arg{})
	return n, err
}

// StringsBuilderWriteByte is (*strings.Builder).WriteByte.
func StringsBuilderWriteByte(b *strings.Builder, c byte) error {
	if !on.Load() || !Enter(idBuilderWriteByte, 2) {
		return b.WriteByte(c)
	}
	cs := In(1, uint64(c))
	old := builderShadow(b)
	err := b.WriteByte(c)
	var ps S
	if cs != 0 {
		ps = mk(Node{Op: OpFromList, K: KString, List: []S{cs}})
	}
	builderAppend(b, old, ps, string([]byte{c}))
	Ret(idBuilderWriteByte, Arg{})
	return err
}

// StringsBuilderWriteRune is (*strings.Builder).WriteRune: an ASCII rune
// is one byte (an implicit branch on a symbolic rune); another symbolic
// rune is written as its concrete bytes with a concretization.
func StringsBuilderWriteRune(b *strings.Builder, r rune) (int, error) {
	if !on.Load() || !Enter(idBuilderWriteRune, 2) {
		return b.WriteRune(r)
	}
	rs := In(1, uint64(int64(r)))
	old := builderShadow(b)
	n, err := b.WriteRune(r)
	var ps S
	if rs != 0 {
		ascii := r >= 0 && r < utf8.RuneSelf
		Imp(0, ascii, runeRange(rs, 0, utf8.RuneSelf-1))
		if ascii {
			ps = mk(Node{Op: OpFromList, K: KString, List: []S{Conv(KUint8, KInt32, rs)}})
		} else {
			Conc(0, "strings.Builder.WriteRune of a rune that is not ASCII")
		}
	}
	builderAppend(b, old, ps, b.String()[b.Len()-n:])
	Ret(idBuilderWriteRune, Arg{F: uint64(n)}, Arg{})
	return n, err
}

// StringsBuilderString is (*strings.Builder).String.
func StringsBuilderString(b *strings.Builder) string {
	r := b.String()
	if on.Load() && Enter(idBuilderString, 1) {
		if s := builderShadow(b); s != 0 {
			Ret(idBuilderString, Arg{S: s, F: FS(r)})
		}
	}
	return r
}

// StringsBuilderLen is (*strings.Builder).Len.
func StringsBuilderLen(b *strings.Builder) int {
	r := b.Len()
	if on.Load() && Enter(idBuilderLen, 1) {
		if s := builderShadow(b); s != 0 {
			Ret(idBuilderLen, Arg{S: StrLen(s), F: uint64(r)})
		}
	}
	return r
}

// StringsBuilderReset is (*strings.Builder).Reset: the content and its
// shadow are gone.
func StringsBuilderReset(b *strings.Builder) {
	if on.Load() && Enter(idBuilderReset, 1) && lock() {
		delete(cur.builders, b)
		unlock()
	}
	b.Reset()
}

// StringsBuilderGrow is (*strings.Builder).Grow: a symbolic n is a length
// to allocate, with the implicit branches of make (n >= 0, as the
// original panics otherwise, and the allocation bound MaxAlloc, beyond
// which the run stops before allocating).
func StringsBuilderGrow(b *strings.Builder, n int) {
	if on.Load() && Enter(idBuilderGrow, 2) {
		MakeLen(0, KInt, In(1, uint64(n)), uint64(n))
	}
	b.Grow(n)
}
