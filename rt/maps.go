package rt

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unsafe"
)

// Maps keep shadows of their keys and values in a shadow table per map
// (mapState), keyed by the map's runtime pointer. Which entry a key
// reaches depends on which of the map's keys it equals: every access with
// a symbolic key, or to a map holding symbolic keys, records that as
// implicit branches (MapKeyI): key == K1, key == K2, ... in the order the
// entries were stored, all false but the one it equals (or all false).
// The search negates them like any branch, so the runs try every
// collision and non-collision, and a run's path condition says which
// entry each access reached: the length of the map, the values read and
// deleted, all follow from it. Values of integer, bool and string kinds
// keep their shadows in the table (MapSt, MapLdSh), checked against the
// value's fingerprint like memory cells.
//
// A map whose entries were changed by code dowse does not follow keeps
// its table honest by validation: an entry whose key is gone is dropped,
// a value whose fingerprint changed has no shadow, and keys stored by that
// code are compared as constants. A map with symbolic entries handed to
// such code records a concretization (MapLost). Range loops over maps are
// rewritten to visit the keys in a fixed order (MapKeys) with their
// shadows (MapKeySh, MapLdSh).

// mapEntry is one entry of a map's shadow table.
type mapEntry struct {
	key any    // the concrete key
	ks  S      // the key's shadow (0: concrete)
	vs  S      // the value's shadow (0: concrete)
	vfp uint64 // the fingerprint of the value vs describes
}

// mapState is the shadow table of one map.
type mapState struct {
	entries []mapEntry
	version uint64 // changes with every store, to skip repeated choices
	// lastKey and lastVersion are the key shadow most recently resolved
	// against this table, and the table's version then.
	lastKey     S
	lastVersion uint64
}

// maxMapEntries bounds the entries a key is compared with; beyond, a
// symbolic key is pinned to its value with a concretization.
const maxMapEntries = 64

// mapID is the identity of map m: its runtime pointer (nil for a nil map).
func mapID[M ~map[K]V, K comparable, V any](m M) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&m))
}

// state returns m's shadow table (nil if it has none), with the entries
// whose keys are no longer in m dropped.
func state[M ~map[K]V, K comparable, V any](m M, create bool) *mapState {
	id := mapID(m)
	if id == nil || !lock() {
		return nil
	}
	st := cur.maps[id]
	if st == nil && create {
		if cur.maps == nil {
			cur.maps = map[unsafe.Pointer]*mapState{}
		}
		st = &mapState{}
		cur.maps[id] = st
	}
	unlock()
	if st == nil {
		return nil
	}
	kept := st.entries[:0]
	for _, e := range st.entries {
		if _, ok := m[e.key.(K)]; ok {
			kept = append(kept, e)
		}
	}
	if len(kept) != len(st.entries) {
		clear(st.entries[len(kept):])
		st.entries = kept
		st.version++
	}
	return st
}

// keyKind is the kind of key type K, or KInvalid where dowse keeps no
// shadows of such keys.
func keyKind[K comparable]() Kind {
	return kindOf(reflect.TypeFor[K]())
}

// MapKeyI records which entry of m key k (shadow ks) reaches, for an
// access m[k] at site, and returns k. For a store (store true) the key is
// entered in m's table before the store happens, with its shadow, so that
// later keys are compared with it even where the store's value cannot be
// followed.
func MapKeyI[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks S, store bool) K {
	if !on.Load() {
		return k
	}
	kk := keyKind[K]()
	if kk == KInvalid {
		if ks != 0 {
			Conc(site, "map key of an untracked kind")
		}
		return k
	}
	st := state(m, ks != 0)
	if st == nil {
		return k
	}
	if ks == 0 || st.lastKey != ks || st.lastVersion != st.version {
		resolve(site, st, m, k, ks, kk)
		st.lastKey, st.lastVersion = ks, st.version
	}
	if store {
		for _, e := range st.entries {
			if e.key.(K) == k {
				return k
			}
		}
		if ks != 0 {
			st.entries = append(st.entries, mapEntry{key: k, ks: ks})
			st.version++
			st.lastKey, st.lastVersion = ks, st.version
		}
	}
	return k
}

// resolve records the implicit branches "k == key" for m's entries in
// table order, up to the one k equals.
func resolve[M ~map[K]V, K comparable, V any](site uint32, st *mapState, m M, k K, ks S, kk Kind) {
	symbolic := ks != 0
	for _, e := range st.entries {
		symbolic = symbolic || e.ks != 0
	}
	if !symbolic {
		return
	}
	if len(st.entries) > maxMapEntries {
		pinKey(site, k, ks, kk)
		return
	}
	resolveIn(site, st, m, k, ks, kk, ks != 0)
}

// resolveIn is resolve; others says whether the keys of m that the table
// does not hold are compared too.
func resolveIn[M ~map[K]V, K comparable, V any](site uint32, st *mapState, m M, k K, ks S, kk Kind, others bool) {
	entries := st.entries
	if others {
		// The map's other keys (stored by code dowse does not follow, or
		// concrete), as constants, in the order of their values.
		var others []K
		for key := range m {
			if !slices.ContainsFunc(st.entries, func(e mapEntry) bool { return e.key.(K) == key }) {
				others = append(others, key)
			}
		}
		if len(entries)+len(others) > maxMapEntries {
			pinKey(site, k, ks, kk)
			return
		}
		slices.SortFunc(others, func(a, b K) int { return compareKeys(a, b, kk) })
		entries = slices.Clone(entries)
		for _, key := range others {
			entries = append(entries, mapEntry{key: key})
		}
	}
	kc := ks
	if kc == 0 {
		_, c := valueOf(k, kk)
		kc = c()
	}
	for _, e := range entries {
		equal := e.key.(K) == k
		if ks == 0 && e.ks == 0 {
			if equal {
				return // both concrete
			}
			continue
		}
		es := e.ks
		if es == 0 {
			_, c := valueOf(e.key.(K), kk)
			es = c()
		}
		if es == kc {
			return // the same expression: equal on every input
		}
		Imp(site, equal, mk(Node{Op: OpEq, K: KBool, K2: kk, A: kc, B: es}))
		if equal {
			return
		}
	}
}

// pinKey pins symbolic key k (shadow ks, kind kk) to its value, with a
// concretization at site: the implicit branch k == value, the value a
// constant of k's own kind. A string key's fingerprint is no value a
// constant can hold, so Pin, which takes the value's bits, is no use for
// keys of every kind.
func pinKey[K comparable](site uint32, k K, ks S, kk Kind) {
	if ks == 0 || !on.Load() {
		return
	}
	_, c := valueOf(k, kk)
	Imp(site, true, mk(Node{Op: OpEq, K: KBool, K2: kk, A: ks, B: c()}))
	Conc(site, "map key compared with too many keys")
}

// compareKeys orders keys of kind kk by value.
func compareKeys[K comparable](a, b K, kk Kind) int {
	pa, pb := unsafe.Pointer(&a), unsafe.Pointer(&b)
	if kk == KString {
		return strings.Compare(*(*string)(pa), *(*string)(pb))
	}
	x, y := fingerprintBits(kk, readBits(pa, kk)), fingerprintBits(kk, readBits(pb, kk))
	if kk.Signed() {
		return cmp.Compare(int64(x), int64(y))
	}
	return cmp.Compare(x, y)
}

// MapLdSh is the shadow of the value m[k] with the fingerprint of the
// value it describes (the companion form, checked where it is used): the
// one stored with k's entry.
func MapLdSh[M ~map[K]V, K comparable, V any](m M, k K) Sh {
	if !on.Load() || keyKind[K]() == KInvalid {
		return Sh{}
	}
	st := state(m, false)
	if st == nil {
		return Sh{}
	}
	for _, e := range st.entries {
		if e.key.(K) == k {
			return Mk(e.vs, e.vfp)
		}
	}
	return Sh{}
}

// MapSt records, after the store m[k] = v, the shadows of the key (ks)
// and of the value (vs, with the value's fingerprint fp).
func MapSt[M ~map[K]V, K comparable, V any](m M, k K, ks S, vs S, fp uint64) {
	if !on.Load() {
		return
	}
	if keyKind[K]() == KInvalid {
		if vs != 0 {
			Conc(0, "stored in a map with keys of an untracked kind")
		}
		return
	}
	st := state(m, ks != 0 || vs != 0)
	if st == nil {
		return
	}
	if _, ok := m[k]; !ok {
		return // the store did not happen (a panic in between)
	}
	for i := range st.entries {
		if e := &st.entries[i]; e.key.(K) == k {
			if e.ks == 0 {
				e.ks = ks
			}
			e.vs, e.vfp = vs, fp
			st.version++
			return
		}
	}
	if ks != 0 || vs != 0 {
		st.entries = append(st.entries, mapEntry{key: k, ks: ks, vs: vs, vfp: fp})
		st.version++
	}
}

// MapLost records a concretization at site if m has symbolic keys or
// values: it is handed to code that does not follow them (or ranged over,
// whose order of iteration dowse does not model).
func MapLost[M ~map[K]V, K comparable, V any](site uint32, m M, why string) {
	if !on.Load() || keyKind[K]() == KInvalid {
		return
	}
	st := state(m, false)
	if st == nil {
		return
	}
	for _, e := range st.entries {
		if e.ks != 0 || e.vs != 0 {
			Conc(site, why)
			return
		}
	}
}

// MapLit enters the element k: v of a map literal in m's table, in the
// literal's order (after the literal is built, so m already holds every
// key of it): k is compared with the elements entered before it only.
func MapLit[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks S, vs S, fp uint64) {
	if !on.Load() {
		return
	}
	kk := keyKind[K]()
	if kk == KInvalid {
		if ks != 0 {
			Conc(site, "map key of an untracked kind")
		}
		return
	}
	st := state(m, true)
	if st == nil {
		return
	}
	resolveIn(site, st, m, k, ks, kk, false)
	for i := range st.entries {
		if e := &st.entries[i]; e.key.(K) == k {
			e.vs, e.vfp = vs, fp
			st.version++
			return
		}
	}
	st.entries = append(st.entries, mapEntry{key: k, ks: ks, vs: vs, vfp: fp})
	st.version++
}

// MapKeys returns m's keys in the order a rewritten range loop visits
// them: the keys of m's table in the order the run stored them, then the
// others in the order of their values. The order is a legal one for Go's
// range (which leaves it unspecified) and makes runs with the same path
// visit the keys the same way; m's keys must be of a tracked kind.
func MapKeys[M ~map[K]V, K comparable, V any](m M) []K {
	if len(m) == 0 {
		return nil
	}
	kk := keyKind[K]()
	keys := make([]K, 0, len(m))
	var st *mapState
	if on.Load() {
		st = state(m, false)
	}
	if st != nil {
		for _, e := range st.entries {
			keys = append(keys, e.key.(K))
		}
	}
	tracked := len(keys)
	for k := range m {
		if st == nil || !slices.ContainsFunc(st.entries, func(e mapEntry) bool { return e.key.(K) == k }) {
			keys = append(keys, k)
		}
	}
	if kk != KInvalid {
		slices.SortFunc(keys[tracked:], func(a, b K) int { return compareKeys(a, b, kk) })
	}
	return keys
}

// MapKeySh is the shadow of key k of m: the one its table entry holds.
func MapKeySh[M ~map[K]V, K comparable, V any](m M, k K) S {
	if !on.Load() || keyKind[K]() == KInvalid {
		return 0
	}
	st := state(m, false)
	if st == nil {
		return 0
	}
	for _, e := range st.entries {
		if e.key.(K) == k {
			return e.ks
		}
	}
	return 0
}
