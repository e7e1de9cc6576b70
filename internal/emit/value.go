package emit

import (
	"fmt"
	"go/types"

	"github.com/dowse-go/dowse/rt"
)

// A value is one input reconstructed from the flat vector of leaves
// according to its Go type (see rt.Leaf for the flattening rule).
type value struct {
	t      types.Type // the type as declared (may be named or an alias)
	kind   rt.Kind    // scalars: the leaf's kind
	bits   uint64     // integers and bools
	str    string     // strings
	elems  []*value   // arrays; slices: the first len elements
	isNil  bool       // a slice of length 0
	fields []field    // structs, blank fields left out
}

type field struct {
	v   *types.Var
	val *value
}

// decoder walks a target's leaves and one row's inputs in step.
type decoder struct {
	leaves []rt.Leaf
	inputs []rt.Value
	i      int
}

func (d *decoder) next(want string) (rt.Leaf, rt.Value, error) {
	if d.i >= len(d.leaves) {
		return rt.Leaf{}, rt.Value{}, fmt.Errorf("input vector too short: no leaf for %s", want)
	}
	l, v := d.leaves[d.i], d.inputs[d.i]
	d.i++
	return l, v, nil
}

// decodeRow rebuilds the values of params from one row's inputs.
func decodeRow(params []*types.Var, leaves []rt.Leaf, inputs []rt.Value) ([]*value, error) {
	if len(inputs) != len(leaves) {
		return nil, fmt.Errorf("row has %d inputs for %d leaves", len(inputs), len(leaves))
	}
	d := &decoder{leaves: leaves, inputs: inputs}
	vals := make([]*value, len(params))
	for i, p := range params {
		v, err := d.decode(p.Type(), paramLabel(p, i))
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	if d.i != len(leaves) {
		return nil, fmt.Errorf("%d leaves left over after the last parameter", len(leaves)-d.i)
	}
	return vals, nil
}

func paramLabel(p *types.Var, i int) string {
	if p.Name() == "" || p.Name() == "_" {
		return fmt.Sprintf("parameter %d", i+1)
	}
	return p.Name()
}

func (d *decoder) decode(t types.Type, path string) (*value, error) {
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Basic:
		l, in, err := d.next(path)
		if err != nil {
			return nil, err
		}
		if err := checkBasicLeaf(u, l); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		v := &value{t: t, kind: l.K}
		if l.K == rt.KString {
			v.str = in.Str
		} else {
			v.bits = in.Bits & mask(l.K.Bits())
		}
		return v, nil
	case *types.Array:
		v := &value{t: t}
		for i := int64(0); i < u.Len(); i++ {
			e, err := d.decode(u.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			v.elems = append(v.elems, e)
		}
		return v, nil
	case *types.Slice:
		l, in, err := d.next("len(" + path + ")")
		if err != nil {
			return nil, err
		}
		if !l.IsLen || !l.K.Integer() {
			return nil, fmt.Errorf("len(%s): leaf %q is not a length", path, l.Path)
		}
		n := signExtend(in.Bits, l.K.Bits())
		if n < 0 || n > int64(l.Max) {
			return nil, fmt.Errorf("len(%s) = %d outside [0, %d]", path, n, l.Max)
		}
		v := &value{t: t, isNil: n == 0}
		for i := 0; i < l.Max; i++ {
			e, err := d.decode(u.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			if int64(i) < n {
				v.elems = append(v.elems, e)
			}
		}
		return v, nil
	case *types.Struct:
		v := &value{t: t}
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if f.Name() == "_" {
				continue
			}
			fv, err := d.decode(f.Type(), path+"."+f.Name())
			if err != nil {
				return nil, err
			}
			v.fields = append(v.fields, field{f, fv})
		}
		return v, nil
	}
	return nil, fmt.Errorf("%s: unsupported input type %s", path, t)
}

// checkBasicLeaf checks that leaf l can hold a value of basic type b.
func checkBasicLeaf(b *types.Basic, l rt.Leaf) error {
	info := b.Info()
	switch {
	case info&types.IsBoolean != 0:
		if l.K == rt.KBool {
			return nil
		}
	case info&types.IsString != 0:
		if l.K == rt.KString {
			return nil
		}
	case info&types.IsInteger != 0:
		if !l.K.Integer() || l.IsLen || l.K.Signed() != (info&types.IsUnsigned == 0) {
			break
		}
		switch w := basicBits(b.Kind()); w {
		case 0: // int, uint, uintptr: 32 or 64 bits by platform
			if l.K.Bits() == 32 || l.K.Bits() == 64 {
				return nil
			}
		default:
			if l.K.Bits() == w {
				return nil
			}
		}
	default:
		return fmt.Errorf("unsupported input type %s", b)
	}
	return fmt.Errorf("leaf %q of kind %s does not fit type %s", l.Path, l.K, b)
}

// basicBits is the width of a sized integer kind, 0 for platform-sized ones.
func basicBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	case types.Int64, types.Uint64:
		return 64
	}
	return 0
}

func mask(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

func signExtend(x uint64, bits int) int64 {
	if bits >= 64 || bits <= 0 {
		return int64(x)
	}
	s := uint(64 - bits)
	return int64(x<<s) >> s
}

// isZero reports whether v is its type's zero value.
func (v *value) isZero() bool {
	switch {
	case v.kind != rt.KInvalid:
		return v.bits == 0 && v.str == ""
	case v.fields != nil:
		for _, f := range v.fields {
			if !f.val.isZero() {
				return false
			}
		}
		return true
	}
	switch types.Unalias(v.t).Underlying().(type) {
	case *types.Slice:
		return v.isNil
	case *types.Array:
		for _, e := range v.elems {
			if !e.isZero() {
				return false
			}
		}
	}
	return true
}

// signed reports whether an integer value is of a signed kind.
func (v *value) signed() bool { return v.kind.Signed() }

// int64 returns a signed integer value.
func (v *value) int64() int64 { return signExtend(v.bits, v.kind.Bits()) }
