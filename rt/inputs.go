package rt

import (
	"fmt"
	"reflect"
	"sync"
	"unsafe"
)

// Flatten returns the input layout of a target whose parameters after the
// *testing.T have the types params (see Leaf for the rule).
func Flatten(params []reflect.Type, names []string, maxLen int) ([]Leaf, error) {
	var leaves []Leaf
	for i, t := range params {
		name := fmt.Sprintf("p%d", i)
		if i < len(names) && names[i] != "" {
			name = names[i]
		}
		if err := flatten(t, name, maxLen, &leaves); err != nil {
			return nil, err
		}
	}
	return leaves, nil
}

func kindOf(t reflect.Type) Kind {
	switch t.Kind() {
	case reflect.Bool:
		return KBool
	case reflect.Int:
		return KInt
	case reflect.Int8:
		return KInt8
	case reflect.Int16:
		return KInt16
	case reflect.Int32:
		return KInt32
	case reflect.Int64:
		return KInt64
	case reflect.Uint:
		return KUint
	case reflect.Uint8:
		return KUint8
	case reflect.Uint16:
		return KUint16
	case reflect.Uint32:
		return KUint32
	case reflect.Uint64:
		return KUint64
	case reflect.Uintptr:
		return KUintptr
	case reflect.String:
		return KString
	}
	return KInvalid
}

func flatten(t reflect.Type, path string, maxLen int, out *[]Leaf) error {
	if k := kindOf(t); k != KInvalid {
		l := Leaf{Path: path, K: k}
		if k == KString {
			l.Max = maxLen
		}
		*out = append(*out, l)
		return nil
	}
	switch t.Kind() {
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			if err := flatten(t.Elem(), fmt.Sprintf("%s[%d]", path, i), maxLen, out); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice:
		*out = append(*out, Leaf{Path: "len(" + path + ")", K: KInt, IsLen: true, Max: maxLen})
		for i := 0; i < maxLen; i++ {
			if err := flatten(t.Elem(), fmt.Sprintf("%s[%d]", path, i), maxLen, out); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Name == "_" {
				continue
			}
			if err := flatten(f.Type, path+"."+f.Name, maxLen, out); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unsupported parameter type %s", t)
}

// leafCounts caches leafCount, which input building asks for every slice
// of every run.
var leafCounts sync.Map // leafKey -> int

type leafKey struct {
	t      reflect.Type
	maxLen int
}

// leafCount is the number of leaves of type t.
func leafCount(t reflect.Type, maxLen int) int {
	key := leafKey{t, maxLen}
	if n, ok := leafCounts.Load(key); ok {
		return n.(int)
	}
	var leaves []Leaf
	n := 0
	if flatten(t, "", maxLen, &leaves) == nil {
		n = len(leaves)
	}
	leafCounts.Store(key, n)
	return n
}

// builder turns an input vector into argument values and gives their
// leaves their shadows.
type builder struct {
	vals   []Value
	leaves []Leaf
	next   int
	maxLen int
}

// arg builds the next parameter of type t and returns it with the Arg that
// carries its shadow into the target's prologue.
func (b *builder) arg(t reflect.Type) (reflect.Value, Arg) {
	v := reflect.New(t).Elem()
	s, fp := b.fill(v)
	switch t.Kind() {
	case reflect.Array, reflect.Struct:
		return v, Arg{S: Agg, F: uint64(v.UnsafeAddr())}
	}
	return v, Arg{S: s, F: fp}
}

func (b *builder) take() (Value, S) {
	i := b.next
	b.next++
	return b.vals[i], cur.inputs[i]
}

// fill sets the addressable value v from the next leaves and returns the
// shadow and fingerprint of v itself when it is a scalar, string or slice.
func (b *builder) fill(v reflect.Value) (S, uint64) {
	t := v.Type()
	k := kindOf(t)
	switch {
	case k == KBool:
		x, s := b.take()
		v.SetBool(x.Bits != 0)
		return s, B(x.Bits != 0)
	case k == KString:
		x, s := b.take()
		v.SetString(x.Str)
		return s, FS(v.String())
	case k.Signed():
		x, s := b.take()
		n := int64(signExtend(k, mask(k, x.Bits)))
		v.SetInt(n)
		return s, uint64(n)
	case k.Integer():
		x, s := b.take()
		n := mask(k, x.Bits)
		v.SetUint(n)
		return s, n
	}
	switch t.Kind() {
	case reflect.Array:
		for i := 0; i < t.Len(); i++ {
			b.fillAt(v.Index(i))
		}
	case reflect.Slice:
		x, s := b.take()
		n := int(x.Bits)
		if n < 0 || n > b.maxLen {
			n = 0
		}
		per := leafCount(t.Elem(), b.maxLen)
		if n > 0 {
			v.Set(reflect.MakeSlice(t, n, n))
			for i := 0; i < n; i++ {
				b.fillAt(v.Index(i))
			}
		}
		b.next += (b.maxLen - n) * per
		return s, uint64(n)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if t.Field(i).Name == "_" {
				continue
			}
			f := v.Field(i)
			if !f.CanSet() {
				f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
			}
			b.fillAt(f)
		}
	}
	return 0, 0
}

// fillAt fills v, which lives in memory, and records its shadow cell.
func (b *builder) fillAt(v reflect.Value) {
	s, fp := b.fill(v)
	if s != 0 {
		St(v.UnsafeAddr(), s, fp)
	}
}
