package rt

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
)

// checkLayout reports whether layout l describes parameters of the types
// params: the worker refuses a layout that does not fit the function it
// would call with the values built from it.
func checkLayout(l *Layout, params []reflect.Type, funcs map[string]reflect.Value) error {
	if err := l.Check(); err != nil {
		return err
	}
	if len(l.Params) != len(params) {
		return fmt.Errorf("layout has %d parameters, the function %d", len(l.Params), len(params))
	}
	c := &checker{l: l, funcs: funcs, seen: map[fit]bool{}}
	for i, p := range l.Params {
		if err := c.fits(p.Shape, params[i]); err != nil {
			return fmt.Errorf("parameter %d (%s): %w", i+1, p.Name, err)
		}
	}
	return nil
}

type fit struct {
	shape int
	t     reflect.Type
}

var (
	errorType   = reflect.TypeFor[error]()
	contextType = reflect.TypeFor[context.Context]()
	writerType  = reflect.TypeFor[interface{ Write([]byte) (int, error) }]()
	readerType  = reflect.TypeFor[io.Reader]()
)

// checker checks shapes of a layout against types.
type checker struct {
	l     *Layout
	funcs map[string]reflect.Value // the functions Builds call, by Func.Expr
	seen  map[fit]bool
}

// fits checks shape i of the layout against type t.
func (c *checker) fits(i int, t reflect.Type) error {
	l := c.l
	if c.seen[fit{i, t}] {
		return nil
	}
	c.seen[fit{i, t}] = true
	s := &l.Shapes[i]
	bad := func() error { return fmt.Errorf("shape %s (%s) does not fit type %s", s.Kind, s.Type, t) }
	switch s.Kind {
	case ShapeScalar:
		if s.Float {
			if !(t.Kind() == reflect.Float32 && s.K == KUint32 || t.Kind() == reflect.Float64 && s.K == KUint64) {
				return bad()
			}
			break
		}
		if kindOf(t) != s.K {
			return bad()
		}
	case ShapeArray:
		if t.Kind() != reflect.Array || t.Len() != s.Len {
			return bad()
		}
		return c.fits(s.Elem, t.Elem())
	case ShapeSlice:
		if t.Kind() != reflect.Slice {
			return bad()
		}
		return c.fits(s.Elem, t.Elem())
	case ShapePointer:
		if t.Kind() != reflect.Pointer {
			return bad()
		}
		return c.fits(s.Elem, t.Elem())
	case ShapeMap:
		if t.Kind() != reflect.Map {
			return bad()
		}
		if err := c.fits(s.Key, t.Key()); err != nil {
			return err
		}
		return c.fits(s.Elem, t.Elem())
	case ShapeStruct:
		if t.Kind() != reflect.Struct {
			return bad()
		}
		for _, f := range s.Fields {
			if f.Index < 0 || f.Index >= t.NumField() || t.Field(f.Index).Name != f.Name {
				return fmt.Errorf("%s has no field %s at index %d", t, f.Name, f.Index)
			}
			if err := c.fits(f.Shape, t.Field(f.Index).Type); err != nil {
				return err
			}
		}
	case ShapeError:
		if t != errorType {
			return bad()
		}
	case ShapeContext:
		if t != contextType {
			return bad()
		}
	case ShapeWriter:
		if t.Kind() != reflect.Interface || !reflect.TypeFor[*bytes.Buffer]().Implements(t) || !t.Implements(writerType) {
			return bad()
		}
	case ShapeReader:
		if t != readerType {
			return bad()
		}
	case ShapeChan:
		if t.Kind() != reflect.Chan || s.Send != (t.ChanDir() == reflect.SendDir) {
			return bad()
		}
		return c.fits(s.Elem, t.Elem())
	case ShapeBuilt:
		return c.fitsBuild(s.Build, t)
	case ShapeIface:
		return c.fitsIface(s, t)
	case ShapeTypeOf:
		if _, ok := c.funcs["#"+s.Type]; !ok || t != rtypeType {
			return fmt.Errorf("the worker has no type %s", s.Type)
		}
	case ShapeVar:
		f, ok := c.funcs["="+s.Type]
		if s.Wrap {
			// fmt.Errorf wraps an error variable into an error.
			if !ok || !f.Type().Implements(errorType) || t != errorType {
				return fmt.Errorf("the worker has no error value %s to wrap", s.Type)
			}
			break
		}
		if !ok || !f.Type().AssignableTo(t) {
			return fmt.Errorf("the worker has no value %s of type %s", s.Type, t)
		}
	case ShapeMock:
		return c.fitsMock(s, t)
	case ShapeAny:
		if t.Kind() != reflect.Interface || t.NumMethod() != 0 {
			return bad()
		}
	case ShapeFunc:
		if t.Kind() != reflect.Func || t.NumOut()+len(s.Writes) != len(s.Outs) {
			return bad()
		}
		for k, o := range s.Outs {
			ot := func() reflect.Type {
				if k < t.NumOut() {
					return t.Out(k)
				}
				if w := s.Writes[k-t.NumOut()]; w < t.NumIn() && t.In(w).Kind() == reflect.Pointer {
					return t.In(w).Elem()
				}
				return nil
			}()
			if ot == nil {
				return bad()
			}
			if err := c.fits(o, ot); err != nil {
				return err
			}
		}
	default:
		return bad()
	}
	return nil
}

// fitsBuild checks that the functions of bd exist and build a value of
// type t: the constructor returns it, the methods take a pointer to it
// (or it, if t is a pointer).
func (c *checker) fitsBuild(bd *Build, t reflect.Type) error {
	if bd.Ctor.Expr != "" {
		ctor, ok := c.funcs[bd.Ctor.Expr]
		if !ok {
			return fmt.Errorf("the worker has no function %s", bd.Ctor.Expr)
		}
		ct := ctor.Type()
		want := t
		if bd.Deref {
			want = reflect.PointerTo(t)
		}
		if bd.Addr && t.Kind() == reflect.Pointer {
			want = t.Elem()
		}
		if ct.NumOut() == 0 || ct.Out(0) != want {
			return fmt.Errorf("%s does not return %s", bd.Ctor.Expr, want)
		}
		if err := c.fitsParams(bd.Ctor, ct, 0); err != nil {
			return err
		}
	}
	recv := t
	if t.Kind() != reflect.Pointer {
		recv = reflect.PointerTo(t)
	}
	for _, m := range bd.Methods {
		fv, ok := c.funcs[m.Expr]
		if !ok {
			return fmt.Errorf("the worker has no function %s", m.Expr)
		}
		if ft := fv.Type(); ft.NumIn() == 0 || ft.In(0) != recv {
			return fmt.Errorf("%s is not a method of %s", m.Expr, recv)
		} else if err := c.fitsParams(m, ft, 1); err != nil {
			return err
		}
	}
	return nil
}

// fitsParams checks fn's parameter shapes against ft's parameters from
// index first on, and its error result.
func (c *checker) fitsParams(fn Func, ft reflect.Type, first int) error {
	if ft.IsVariadic() != fn.Variadic || ft.NumIn()-first != len(fn.Params) {
		return fmt.Errorf("%s does not take %d parameters", fn.Expr, len(fn.Params))
	}
	for k, p := range fn.Params {
		if err := c.fits(p, ft.In(first+k)); err != nil {
			return fmt.Errorf("%s: %w", fn.Expr, err)
		}
	}
	if fn.Err && (ft.NumOut() == 0 || ft.Out(ft.NumOut()-1) != errorType) {
		return fmt.Errorf("%s does not return an error last", fn.Expr)
	}
	return nil
}

// scalarType is the unnamed Go type of scalar kind k.
func scalarType(k Kind) reflect.Type {
	switch k {
	case KBool:
		return reflect.TypeFor[bool]()
	case KInt8:
		return reflect.TypeFor[int8]()
	case KInt16:
		return reflect.TypeFor[int16]()
	case KInt32:
		return reflect.TypeFor[int32]()
	case KInt64:
		return reflect.TypeFor[int64]()
	case KUint:
		return reflect.TypeFor[uint]()
	case KUint8:
		return reflect.TypeFor[uint8]()
	case KUint16:
		return reflect.TypeFor[uint16]()
	case KUint32:
		return reflect.TypeFor[uint32]()
	case KUint64:
		return reflect.TypeFor[uint64]()
	case KUintptr:
		return reflect.TypeFor[uintptr]()
	case KString:
		return reflect.TypeFor[string]()
	}
	return reflect.TypeFor[int]()
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
