package rt

import (
	"reflect"
	"slices"
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
	ks  S      // the key's shadow (0: concrete), integer, bool and string keys
	kp  KS     // the key's shadow (nil: concrete), composite keys
	vs  S      // the value's shadow (0: concrete)
	vfp uint64 // the fingerprint of the value vs describes
}

// sh is the shadow of e's key.
func (e *mapEntry) sh() keySh { return keySh{s: e.ks, p: e.kp} }

// mapState is the shadow table of one map.
type mapState struct {
	entries []mapEntry
	version uint64 // changes with every store, to skip repeated choices
	// lastKey and lastVersion are the key shadow most recently resolved
	// against this table, and the table's version then.
	lastKey     keySh
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
	return mapKeyI(site, m, k, keySh{s: ks}, store)
}

// MapKeyT is MapKeyI for a composite key k with shadow ks (KeyOf).
func MapKeyT[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks KS, store bool) K {
	return mapKeyI(site, m, k, keySh{p: ks}, store)
}

func mapKeyI[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks keySh, store bool) K {
	if !on.Load() {
		return k
	}
	kt := keyOf[K]()
	if !kt.tracked() {
		if ks.sym() {
			Conc(site, "map key of an untracked kind")
		}
		return k
	}
	st := state(m, ks.sym())
	if st == nil {
		return k
	}
	if !ks.sym() || !st.lastKey.same(ks) || st.lastVersion != st.version {
		resolve(site, st, m, k, ks, kt)
		st.lastKey, st.lastVersion = ks, st.version
	}
	if store {
		for _, e := range st.entries {
			if e.key.(K) == k {
				return k
			}
		}
		if ks.sym() {
			st.entries = append(st.entries, mapEntry{key: k, ks: ks.s, kp: ks.p})
			st.version++
			st.lastKey, st.lastVersion = ks, st.version
		}
	}
	return k
}

// resolve records the implicit branches "k == key" for m's entries in
// table order, up to the one k equals.
func resolve[M ~map[K]V, K comparable, V any](site uint32, st *mapState, m M, k K, ks keySh, kt *keyType) {
	symbolic := ks.sym()
	for i := range st.entries {
		symbolic = symbolic || st.entries[i].sh().sym()
	}
	if !symbolic {
		return
	}
	if len(st.entries) > maxMapEntries {
		pinKey(site, k, ks, kt)
		return
	}
	resolveIn(site, st, m, k, ks, kt, ks.sym())
}

// resolveIn is resolve; others says whether the keys of m that the table
// does not hold are compared too.
func resolveIn[M ~map[K]V, K comparable, V any](site uint32, st *mapState, m M, k K, ks keySh, kt *keyType, others bool) {
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
			pinKey(site, k, ks, kt)
			return
		}
		slices.SortFunc(others, func(a, b K) int { return kt.compare(unsafe.Pointer(&a), unsafe.Pointer(&b)) })
		entries = slices.Clone(entries)
		for _, key := range others {
			entries = append(entries, mapEntry{key: key})
		}
	}
	for i := range entries {
		e := &entries[i]
		ek := e.key.(K)
		s, decided, equal := kt.eq(unsafe.Pointer(&k), unsafe.Pointer(&ek), ks, e.sh())
		if decided {
			if equal {
				return // equal on every input of the path
			}
			continue
		}
		equal = ek == k
		Imp(site, equal, s)
		if equal {
			return
		}
	}
}

// pinKey pins symbolic key k (shadow ks, type kt) to its value, with a
// concretization at site: the implicit branch k == value, the value a
// constant of k's own kind (of each leaf's kind for a composite key). A
// string key's fingerprint is no value a constant can hold, so Pin, which
// takes the value's bits, is no use for keys of every kind.
func pinKey[K comparable](site uint32, k K, ks keySh, kt *keyType) {
	if !ks.sym() || !on.Load() {
		return
	}
	if s := kt.pin(unsafe.Pointer(&k), ks); s != 0 {
		Imp(site, true, s)
	}
	Conc(site, "map key compared with too many keys")
}

// MapLdSh is the shadow of the value m[k] with the fingerprint of the
// value it describes (the companion form, checked where it is used): the
// one stored with k's entry.
func MapLdSh[M ~map[K]V, K comparable, V any](m M, k K) Sh {
	if !on.Load() || !keyOf[K]().tracked() {
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
	mapSt(m, k, keySh{s: ks}, vs, fp)
}

// MapStT is MapSt for a composite key k with shadow ks (KeyOf).
func MapStT[M ~map[K]V, K comparable, V any](m M, k K, ks KS, vs S, fp uint64) {
	mapSt(m, k, keySh{p: ks}, vs, fp)
}

func mapSt[M ~map[K]V, K comparable, V any](m M, k K, ks keySh, vs S, fp uint64) {
	if !on.Load() {
		return
	}
	if !keyOf[K]().tracked() {
		if vs != 0 {
			Conc(0, "stored in a map with keys of an untracked kind")
		}
		return
	}
	st := state(m, ks.sym() || vs != 0)
	if st == nil {
		return
	}
	if _, ok := m[k]; !ok {
		return // the store did not happen (a panic in between)
	}
	for i := range st.entries {
		if e := &st.entries[i]; e.key.(K) == k {
			if !e.sh().sym() {
				e.ks, e.kp = ks.s, ks.p
			}
			e.vs, e.vfp = vs, fp
			st.version++
			return
		}
	}
	if ks.sym() || vs != 0 {
		st.entries = append(st.entries, mapEntry{key: k, ks: ks.s, kp: ks.p, vs: vs, vfp: fp})
		st.version++
	}
}

// MapLost records a concretization at site if m has symbolic keys or
// values: it is handed to code that does not follow them (or ranged over,
// whose order of iteration dowse does not model).
func MapLost[M ~map[K]V, K comparable, V any](site uint32, m M, why string) {
	if !on.Load() || !keyOf[K]().tracked() {
		return
	}
	st := state(m, false)
	if st == nil {
		return
	}
	for i := range st.entries {
		if e := &st.entries[i]; e.sh().sym() || e.vs != 0 {
			Conc(site, why)
			return
		}
	}
}

// MapLit enters the element k: v of a map literal in m's table, in the
// literal's order (after the literal is built, so m already holds every
// key of it): k is compared with the elements entered before it only.
func MapLit[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks S, vs S, fp uint64) {
	mapLit(site, m, k, keySh{s: ks}, vs, fp)
}

// MapLitT is MapLit for a composite key k with shadow ks (KeyOf).
func MapLitT[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks KS, vs S, fp uint64) {
	mapLit(site, m, k, keySh{p: ks}, vs, fp)
}

func mapLit[M ~map[K]V, K comparable, V any](site uint32, m M, k K, ks keySh, vs S, fp uint64) {
	if !on.Load() {
		return
	}
	kt := keyOf[K]()
	if !kt.tracked() {
		if ks.sym() {
			Conc(site, "map key of an untracked kind")
		}
		return
	}
	st := state(m, true)
	if st == nil {
		return
	}
	resolveIn(site, st, m, k, ks, kt, false)
	for i := range st.entries {
		if e := &st.entries[i]; e.key.(K) == k {
			e.vs, e.vfp = vs, fp
			st.version++
			return
		}
	}
	st.entries = append(st.entries, mapEntry{key: k, ks: ks.s, kp: ks.p, vs: vs, vfp: fp})
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
	kt := keyOf[K]()
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
	if kt.tracked() {
		slices.SortFunc(keys[tracked:], func(a, b K) int { return kt.compare(unsafe.Pointer(&a), unsafe.Pointer(&b)) })
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
