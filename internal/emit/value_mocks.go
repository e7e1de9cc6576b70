package emit

import (
	"fmt"
	"go/types"
	"strings"

	"github.com/dowse-go/dowse/internal/mock"
	"github.com/dowse-go/dowse/rt"
)

// dynTypes are the dynamic types of a target's interface inputs.
type dynTypes struct {
	types map[string]types.Type
	mocks []*mock.Type
	vars  map[string]*types.Var
}

// mockValue decodes a value of a generated mock type: for each method
// with results, one element per scripted call, written as the field of
// the mock that holds them (trailing repeats of the last element left
// out: the mock returns the last one again).
func (d *decoder) mockValue(sh *rt.Shape, t types.Type, path string) (*value, error) {
	m := d.mocks[strings.TrimPrefix(sh.Type, "*")]
	if m == nil {
		return nil, fmt.Errorf("%s: no mock type %s", path, sh.Type)
	}
	st := &value{t: m.Named, shape: rt.ShapeStruct}
	if m.Form == mock.NonStruct {
		st = &value{t: m.Named, shape: rt.ShapeScalar, kind: rt.KInt}
	}
	fields := map[string]*types.Var{}
	if s, ok := m.Named.Underlying().(*types.Struct); ok {
		for i := 0; i < s.NumFields(); i++ {
			fields[s.Field(i).Name()] = s.Field(i)
		}
	}
	if sh.Mock.Scripts {
		for _, md := range sh.Mock.Methods {
			fv := fields[md.Field]
			sl := fv.Type().(*types.Slice)
			list := &value{t: sl, shape: rt.ShapeSlice}
			for c := 0; c < sh.Mock.CallsOf(&md); c++ {
				var e *value
				p := fmt.Sprintf("%s.%s[%d]", path, md.Name, c)
				if !md.Multi {
					var err error
					if e, err = d.decode(md.Outs[0], sl.Elem(), p); err != nil {
						return nil, err
					}
				} else {
					rs := sl.Elem().Underlying().(*types.Struct)
					e = &value{t: sl.Elem(), shape: rt.ShapeStruct}
					for k, o := range md.Outs {
						r, err := d.decode(o, rs.Field(k).Type(), fmt.Sprintf("%s.r%d", p, k))
						if err != nil {
							return nil, err
						}
						e.fields = append(e.fields, field{rs.Field(k), r})
					}
				}
				list.elems = append(list.elems, e)
			}
			for n := len(list.elems); n > 1 && sameValue(list.elems[n-1], list.elems[n-2]); n-- {
				list.elems = list.elems[:n-1]
			}
			if len(list.elems) == 1 && list.elems[0].isZero() {
				list.elems = nil // zero values are what an empty script returns
			}
			list.isNil = len(list.elems) == 0
			st.fields = append(st.fields, field{fv, list})
		}
		if !m.Ptr {
			calls := fields["calls"]
			arr := calls.Type().(*types.Pointer).Elem()
			st.fields = append(st.fields, field{calls, &value{t: calls.Type(), shape: rt.ShapePointer, elem: &value{t: arr}}})
		}
	}
	st.mock = m
	if !m.Ptr {
		return st, nil
	}
	return &value{t: t, shape: rt.ShapePointer, elem: st, mock: m}, nil
}

// mocksOf adds the mock types v uses to used.
func mocksOf(v *value, used map[string]*mock.Type) {
	if v == nil {
		return
	}
	if v.mock != nil {
		used[v.mock.Name] = v.mock
	}
	for _, e := range v.elems {
		mocksOf(e, used)
	}
	for _, f := range v.fields {
		mocksOf(f.val, used)
	}
	mocksOf(v.elem, used)
	mocksOf(v.dyn, used)
	for _, c := range v.calls {
		for _, r := range c {
			mocksOf(r, used)
		}
	}
	for _, e := range v.entries {
		mocksOf(e.key, used)
		mocksOf(e.val, used)
	}
}
