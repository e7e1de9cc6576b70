package rt

import (
	"cmp"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Keys of maps are compared by the shadow tables (maps.go) as Go compares
// them. Integer, bool and string keys have one shadow. Keys of other
// comparable types (structs, arrays, pointers, interfaces, channels,
// floats: composite keys here) are tuples of their leaves, the fields and
// elements that are neither structs nor arrays (blank fields left out, as
// == leaves them out): the shadow of such a key (KS) holds one shadow per
// leaf, read from the memory cells of the key where the code handed it
// over (KeyOf), and "k == K1" is the conjunction of the leaves'
// equalities. Leaves of integer, bool and string kinds are compared
// symbolically; the others — pointers, interfaces, channels, floats — are
// compared concretely: dowse keeps no shadow of the first three (a
// pointer's identity, an interface's dynamic type and value are the same
// on every input of the path, and whatever made them depend on an input
// recorded a concretization where it happened), and a float leaf with a
// shadow records a concretization when the key is read, so a leaf that differs
// makes the keys differ on every input of the path, and one that is equal
// adds nothing to the condition.

// KS is the shadow of a composite map key: one shadow per leaf of its type
// (0 for a concrete leaf), or nil when no leaf is symbolic.
type KS []S

// keyLeaf is one leaf of a composite key type.
type keyLeaf struct {
	off uintptr      // its offset from the key's start
	k   Kind         // its kind; KInvalid: compared concretely
	t   reflect.Type // its type
}

// keyType says how the tables compare keys of one type: by their kind
// (integer, bool and string keys) or leaf by leaf (composite keys). A key
// type with neither (more than maxKeyLeaves leaves) keeps no table.
type keyType struct {
	kk     Kind
	leaves []keyLeaf
}

// maxKeyLeaves bounds the leaves of a composite key type the tables
// follow, as the parts of a comparison of structs are bounded.
const maxKeyLeaves = 32

// keyTypes caches keyType by reflect.Type.
var keyTypes sync.Map

// keyOf is the keyType of K.
func keyOf[K comparable]() *keyType { return keyTypeOf(reflect.TypeFor[K]()) }

// keyTypeOf is the keyType of key type rt.
func keyTypeOf(rt reflect.Type) *keyType {
	if t, ok := keyTypes.Load(rt); ok {
		return t.(*keyType)
	}
	t := &keyType{kk: kindOf(rt)}
	if t.kk == KInvalid {
		var leaves []keyLeaf
		if keyLeaves(rt, 0, &leaves) {
			t.leaves = leaves
		}
	}
	keyTypes.Store(rt, t)
	return t
}

// keyLeaves appends the leaves of a value of type t at offset off to
// leaves; it reports false if there are more than maxKeyLeaves.
func keyLeaves(t reflect.Type, off uintptr, leaves *[]keyLeaf) bool {
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Name == "_" {
				continue
			}
			if !keyLeaves(f.Type, off+f.Offset, leaves) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			if !keyLeaves(t.Elem(), off+uintptr(i)*t.Elem().Size(), leaves) {
				return false
			}
		}
		return true
	}
	if len(*leaves) >= maxKeyLeaves {
		return false
	}
	*leaves = append(*leaves, keyLeaf{off: off, k: kindOf(t), t: t})
	return true
}

// tracked reports whether keys of type t have tables.
func (t *keyType) tracked() bool { return t.kk != KInvalid || t.leaves != nil }

// KeyOf is the shadow of the composite key at p: its leaves' memory cells.
// It is nil for keys of other types and for keys without cells.
func KeyOf[K comparable](p *K) KS {
	if !on.Load() || p == nil {
		return nil
	}
	t := keyOf[K]()
	if t.leaves == nil {
		return nil
	}
	return leafShadows(t, unsafe.Pointer(p))
}

// leafShadows is the shadow of the composite key of type t at p.
func leafShadows(t *keyType, p unsafe.Pointer) KS {
	var ks KS
	for i, l := range t.leaves {
		if l.k == KInvalid {
			if k := l.t.Kind(); (k == reflect.Float32 || k == reflect.Float64) && cellsIn(uintptr(p)+l.off, l.t.Size()) {
				// A float leaf is compared concretely: one that
				// depends on the inputs is a concretization.
				Conc(0, "a float in a composite map key")
			}
			continue
		}
		if s, sym := memShadow(unsafe.Add(p, l.off), l.k); sym {
			if ks == nil {
				ks = make(KS, len(t.leaves))
			}
			ks[i] = s
		}
	}
	return ks
}

// keySh is the shadow of one key: s for a key of a kind, p for a
// composite key.
type keySh struct {
	s S
	p KS
}

// sym reports whether the key has a shadow.
func (k keySh) sym() bool { return k.s != 0 || k.p != nil }

// same reports whether a and b are the same shadows.
func (k keySh) same(o keySh) bool {
	if k.s != o.s || len(k.p) != len(o.p) {
		return false
	}
	for i := range k.p {
		if k.p[i] != o.p[i] {
			return false
		}
	}
	return true
}

// leafConst is the value of kind k at p as a constant.
func leafConst(p unsafe.Pointer, k Kind) S {
	if k == KString {
		return strConst(*(*string)(p))
	}
	return constant(k, readBits(p, k))
}

// eq is the shadow of a == b for keys of type t at pa and pb with shadows
// as and bs. When the comparison is the same on every input of the path
// (both concrete, the same expressions, a concrete leaf that differs),
// decided is true and equal its outcome.
func (t *keyType) eq(pa, pb unsafe.Pointer, as, bs keySh) (s S, decided, equal bool) {
	if t.leaves == nil {
		if as.s == 0 && bs.s == 0 {
			return 0, true, t.leafEqual(pa, pb, t.kk, nil)
		}
		a, b := as.s, bs.s
		if a == 0 {
			a = leafConst(pa, t.kk)
		}
		if b == 0 {
			b = leafConst(pb, t.kk)
		}
		if a == b {
			return 0, true, true
		}
		return mk(Node{Op: OpEq, K: KBool, K2: t.kk, A: a, B: b}), false, false
	}
	for i, l := range t.leaves {
		la, lb := unsafe.Add(pa, l.off), unsafe.Add(pb, l.off)
		var a, b S
		if as.p != nil {
			a = as.p[i]
		}
		if bs.p != nil {
			b = bs.p[i]
		}
		if a == 0 && b == 0 {
			if !t.leafEqual(la, lb, l.k, l.t) {
				return 0, true, false
			}
			continue
		}
		if a == 0 {
			a = leafConst(la, l.k)
		}
		if b == 0 {
			b = leafConst(lb, l.k)
		}
		if a != b {
			s = and(s, mk(Node{Op: OpEq, K: KBool, K2: l.k, A: a, B: b}))
		}
	}
	if s == 0 {
		return 0, true, true
	}
	return s, false, false
}

// leafEqual compares the values of kind k (type rt for KInvalid) at a and
// b concretely.
func (t *keyType) leafEqual(a, b unsafe.Pointer, k Kind, rt reflect.Type) bool {
	switch k {
	case KInvalid:
		return reflect.NewAt(rt, a).Elem().Interface() == reflect.NewAt(rt, b).Elem().Interface()
	case KString:
		return *(*string)(a) == *(*string)(b)
	}
	return readBits(a, k) == readBits(b, k)
}

// pin is the condition "the key at p (shadow ks) has its value".
func (t *keyType) pin(p unsafe.Pointer, ks keySh) S {
	if t.leaves == nil {
		if ks.s == 0 {
			return 0
		}
		return mk(Node{Op: OpEq, K: KBool, K2: t.kk, A: ks.s, B: leafConst(p, t.kk)})
	}
	var s S
	for i, l := range t.leaves {
		if ks.p != nil && ks.p[i] != 0 {
			s = and(s, mk(Node{Op: OpEq, K: KBool, K2: l.k, A: ks.p[i], B: leafConst(unsafe.Add(p, l.off), l.k)}))
		}
	}
	return s
}

// compare orders keys of type t at a and b by value, leaf by leaf; leaves
// compared concretely are ordered by their printed values.
func (t *keyType) compare(a, b unsafe.Pointer) int {
	if t.leaves == nil {
		return compareLeaf(a, b, t.kk, nil)
	}
	for _, l := range t.leaves {
		if c := compareLeaf(unsafe.Add(a, l.off), unsafe.Add(b, l.off), l.k, l.t); c != 0 {
			return c
		}
	}
	return 0
}

// compareLeaf orders values of kind k (type rt for KInvalid) at a and b.
func compareLeaf(a, b unsafe.Pointer, k Kind, rt reflect.Type) int {
	switch k {
	case KInvalid:
		return strings.Compare(fmt.Sprint(reflect.NewAt(rt, a).Elem().Interface()), fmt.Sprint(reflect.NewAt(rt, b).Elem().Interface()))
	case KString:
		return strings.Compare(*(*string)(a), *(*string)(b))
	}
	x, y := fingerprintBits(k, readBits(a, k)), fingerprintBits(k, readBits(b, k))
	if k.Signed() {
		return cmp.Compare(int64(x), int64(y))
	}
	return cmp.Compare(x, y)
}

// MapKeyKS is the shadow of composite key k of m: the one its table entry
// holds (a range loop's key).
func MapKeyKS[M ~map[K]V, K comparable, V any](m M, k K) KS {
	if !on.Load() || keyOf[K]().leaves == nil {
		return nil
	}
	st := state(m, false)
	if st == nil {
		return nil
	}
	for _, e := range st.entries {
		if e.key.(K) == k {
			return e.kp
		}
	}
	return nil
}

// KeySt gives the leaves of the composite key at p the shadows ks (nil:
// none), replacing what their cells held.
func KeySt[K comparable](p *K, ks KS) {
	if !on.Load() || p == nil {
		return
	}
	t := keyOf[K]()
	for i, l := range t.leaves {
		if l.k == KInvalid {
			continue
		}
		a := unsafe.Add(unsafe.Pointer(p), l.off)
		var s S
		if ks != nil {
			s = ks[i]
		}
		fp := uint64(0)
		if l.k == KString {
			fp = FS(*(*string)(a))
		} else {
			fp = fingerprintBits(l.k, readBits(a, l.k))
		}
		St(uintptr(a), s, fp)
	}
}
