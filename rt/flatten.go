package rt

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxLeaves bounds the number of leaves of a layout; recursive types are
// unfolded less deep to stay under it.
const MaxLeaves = 4096

// Unfolding counts the pointees on the way from a parameter, for the
// Depth rule. Every walk of a layout uses it, so that all agree on which
// pointers have leaves.
type Unfolding map[int]int

// Enter reports whether shape i of l (a pointer's pointee, an
// interface) may occur once more here, at most l.Depth times on the way
// from a parameter, and if so counts it until Leave. A copy of a shape
// (Shape.Of) counts as the shape: cutting must not deepen the unfolding.
func (u Unfolding) Enter(l *Layout, i int) bool {
	i = l.own(i)
	if u[i] >= l.Depth {
		return false
	}
	u[i]++
	return true
}

// Leave ends the occurrence of shape i that Enter counted.
func (u Unfolding) Leave(l *Layout, i int) { u[l.own(i)]-- }

// own is the shape that shape i copies (Shape.Of), or i.
func (l *Layout) own(i int) int {
	if of := l.Shapes[i].Of; of > 0 {
		return of - 1
	}
	return i
}

// flattener walks a layout and collects its leaves.
type flattener struct {
	l      *Layout
	u      Unfolding
	param  int
	steps  []Step
	leaves []Leaf
	limit  int // stop collecting after this many leaves (0: no limit)
	// counting only counts the leaves (in n), for leafCount.
	counting bool
	n        int
	// classing collects the classes of the leaves (in classes) instead
	// of the leaves, for PoolOf.
	classing bool
	classes  []leafClass
	// pools memoizes the pools of pooled interfaces (see pool.go).
	pools Pools
}

// full reports whether f has collected as many leaves as its limit.
func (f *flattener) full() bool {
	return f.limit > 0 && len(f.leaves)+len(f.classes) >= f.limit
}

// Leaves flattens the layout into the leaves of the input vector.
func (l *Layout) Leaves() ([]Leaf, error) {
	if err := l.Check(); err != nil {
		return nil, err
	}
	f := &flattener{l: l, u: Unfolding{}, limit: MaxLeaves + 1, pools: Pools{}}
	for i, p := range l.Params {
		f.param = i
		f.steps = f.steps[:0]
		f.shape(p.Shape)
	}
	if len(f.leaves) > MaxLeaves {
		return nil, fmt.Errorf("more than %d input leaves (lower -max-len)", MaxLeaves)
	}
	names := l.paramNames()
	for i := range f.leaves {
		f.leaves[i].Path = pathString(names[f.leaves[i].Param], f.leaves[i].Steps)
	}
	return f.leaves, nil
}

// OutputLayout is the layout of what an automatic target reports (see
// Outputs), as parameters: its leaves are those of Result.Outputs.
func (l *Layout) OutputLayout() *Layout {
	r := *l
	r.Params, r.Results, r.After, r.AfterShapes, r.Observers = l.Outputs(), nil, nil, nil, nil
	return &r
}

// Outputs are what an automatic target reports, in order: its results,
// then the parameters listed in After, as they are after the call, then
// the results of the Observers.
func (l *Layout) Outputs() []Param {
	out := append([]Param(nil), l.Results...)
	for k, i := range l.After {
		out = append(out, Param{Name: l.Params[i].Name, Shape: l.AfterShapes[k]})
	}
	for _, o := range l.Observers {
		out = append(out, Param{Name: l.Params[o.Param].Name + "." + o.Method + "()", Shape: o.Shape})
	}
	return out
}

// CountLeaves is the number of leaves of the layout, or limit+1 if there
// are more than limit.
func (l *Layout) CountLeaves(limit int) int {
	f := &flattener{l: l, u: Unfolding{}, limit: limit + 1, pools: Pools{}}
	for i, p := range l.Params {
		f.param = i
		f.shape(p.Shape)
	}
	return len(f.leaves)
}

// leafCount is the number of leaves of shape i where the unfolding stands
// at u (which it leaves as it was): what the builder passes over for a
// part of the layout the value does not have. pools memoizes the pools
// of pooled interfaces.
func (l *Layout) leafCount(i int, u Unfolding, pools Pools) int {
	f := &flattener{l: l, u: u, counting: true, pools: pools}
	f.shape(i)
	return f.n
}

func (l *Layout) paramNames() []string {
	names := make([]string, len(l.Params))
	for i, p := range l.Params {
		names[i] = p.Name
		if p.Name == "" || p.Name == "_" {
			names[i] = "p" + strconv.Itoa(i)
		}
	}
	return names
}

func (f *flattener) leaf(l Leaf, last ...Step) {
	if f.counting {
		f.n++
		return
	}
	if f.full() {
		return
	}
	if f.classing {
		f.classes = append(f.classes, classOf(l, f.steps, last))
		return
	}
	l.Param = f.param
	l.Steps = append(append([]Step(nil), f.steps...), last...)
	f.leaves = append(f.leaves, l)
}

// length adds the length leaf of collection s.
func (f *flattener) length(s *Shape) {
	n := f.l.Slots(s)
	f.leaf(Leaf{K: KInt, IsLen: true, Max: n, Cut: n < f.l.MaxLen}, Step{Kind: StepLen})
}

func (f *flattener) push(s Step) { f.steps = append(f.steps, s) }

func (f *flattener) pop() { f.steps = f.steps[:len(f.steps)-1] }

func (f *flattener) shape(i int) {
	if f.full() {
		return
	}
	s := &f.l.Shapes[i]
	switch s.Kind {
	case ShapeScalar:
		l := Leaf{K: s.K, Float: s.Float}
		if s.K == KString {
			l.Max = f.l.MaxLen
		}
		f.leaf(l)
	case ShapeArray:
		for j := 0; j < s.Len; j++ {
			f.push(Step{Kind: StepIndex, N: j})
			f.shape(s.Elem)
			f.pop()
		}
	case ShapeSlice:
		f.length(s)
		for j := 0; j < f.l.Slots(s); j++ {
			f.push(Step{Kind: StepIndex, N: j})
			f.shape(s.Elem)
			f.pop()
		}
	case ShapeReader:
		f.length(s)
		for j := 0; j < f.l.Slots(s); j++ {
			f.leaf(Leaf{K: KUint8}, Step{Kind: StepIndex, N: j})
		}
	case ShapeChan:
		if s.Send {
			return
		}
		f.length(s)
		for j := 0; j < f.l.Slots(s); j++ {
			f.push(Step{Kind: StepIndex, N: j})
			f.shape(s.Elem)
			f.pop()
		}
	case ShapeMap:
		f.length(s)
		for j := 0; j < f.l.Slots(s); j++ {
			f.push(Step{Kind: StepMapKey, N: j})
			f.shape(s.Key)
			f.pop()
			f.push(Step{Kind: StepMapValue, N: j})
			f.shape(s.Elem)
			f.pop()
		}
	case ShapeStruct:
		for _, fd := range s.Fields {
			f.push(Step{Kind: StepField, Name: fd.Name})
			f.shape(fd.Shape)
			f.pop()
		}
	case ShapePointer:
		if !f.u.Enter(f.l, s.Elem) {
			return
		}
		if !s.NonNil {
			f.leaf(Leaf{K: KBool, Choice: true}, Step{Kind: StepChoice})
		}
		f.push(Step{Kind: StepDeref})
		f.shape(s.Elem)
		f.pop()
		f.u.Leave(f.l, s.Elem)
	case ShapeError:
		f.leaf(Leaf{K: KBool, Choice: true}, Step{Kind: StepChoice})
		f.leaf(Leaf{K: KString, Max: f.l.MaxLen}, Step{Kind: StepMessage})
	case ShapeFunc:
		if !s.Sandbox {
			f.leaf(Leaf{K: KBool, Choice: true}, Step{Kind: StepChoice})
		}
		for c := 0; c < s.Len; c++ {
			f.push(Step{Kind: StepCall, N: c})
			for k, o := range s.Outs {
				name := "r" + strconv.Itoa(k)
				if w := k - (len(s.Outs) - len(s.Writes)); w >= 0 {
					name = "*a" + strconv.Itoa(s.Writes[w]) // a pointee the call writes
				}
				f.push(Step{Kind: StepArg, N: k, Name: name})
				f.shape(o)
				f.pop()
			}
			f.pop()
		}
	case ShapeAny:
		f.leaf(Leaf{K: KInt, IsLen: true, Max: len(s.Outs)}, Step{Kind: StepType})
		for k, o := range s.Outs {
			f.push(Step{Kind: StepArg, N: k, Name: "(" + f.l.Shapes[o].Type + ")", Alt: k + 1})
			f.shape(o)
			f.pop()
		}
	case ShapeIface:
		if !f.u.Enter(f.l, i) {
			return
		}
		f.leaf(Leaf{K: KInt, IsLen: true, Max: len(s.Outs)}, Step{Kind: StepType})
		if s.Pool {
			f.pool(i)
			f.u.Leave(f.l, i)
			return
		}
		for k, o := range s.Outs {
			f.push(Step{Kind: StepArg, N: k, Name: "(" + f.l.Shapes[o].Type + ")", Alt: k + 1})
			f.shape(o)
			f.pop()
		}
		f.u.Leave(f.l, i)
	case ShapeMock:
		m := s.Mock
		if !m.Scripts {
			return
		}
		for _, md := range m.Methods {
			f.push(Step{Kind: StepField, Name: md.Name})
			for c := 0; c < m.CallsOf(&md); c++ {
				f.push(Step{Kind: StepIndex, N: c})
				for k, o := range md.Outs {
					if md.Multi {
						f.push(Step{Kind: StepField, Name: "r" + strconv.Itoa(k)})
					}
					f.shape(o)
					if md.Multi {
						f.pop()
					}
				}
				f.pop()
			}
			f.pop()
		}
	case ShapeBuilt:
		bd := s.Build
		f.args(bd.Ctor, 0)
		for c := 0; c < bd.Steps; c++ {
			f.push(Step{Kind: StepCall, N: c})
			f.leaf(Leaf{K: KInt, IsLen: true, Max: len(bd.Methods)})
			for j, m := range bd.Methods {
				f.args(m, j+1)
			}
			f.pop()
		}
	}
}

// pool collects the leaves of the pool of pooled interface shape i,
// which the unfolding has entered (see pool.go).
func (f *flattener) pool(i int) {
	p := f.l.PoolOf(i, f.u, f.pools)
	if f.counting {
		f.n += p.Size
		return
	}
	for k, c := range p.slots {
		pos := Step{Kind: StepPool, N: k}
		if c.Last != 0 {
			f.leaf(c.leaf(), pos, Step{Kind: c.Last})
		} else {
			f.leaf(c.leaf(), pos)
		}
	}
}

// args collects the leaves of fn's parameters; alt is the alternative fn
// is (see Step.Alt).
func (f *flattener) args(fn Func, alt int) {
	for k, p := range fn.Params {
		name := ""
		if k < len(fn.ParamNames) {
			name = fn.ParamNames[k]
		}
		f.push(Step{Kind: StepArg, N: k, Name: fn.Name + "(" + name + ")", Alt: alt})
		f.shape(p)
		f.pop()
	}
}

// pathString writes the access path steps from the parameter named root
// as Go: "p.next.val" (fields through pointers), "*p", "len(xs)",
// "xs[1]", "p != nil", "err.Error()"; a map's slots as "key(m, 0)" and
// "value(m, 0)".
func pathString(root string, steps []Step) string {
	x := root
	deref := 0 // pending dereferences
	flush := func(paren bool) {
		if deref == 0 {
			return
		}
		x = strings.Repeat("*", deref) + x
		if paren {
			x = "(" + x + ")"
		}
		deref = 0
	}
	for _, s := range steps {
		switch s.Kind {
		case StepField:
			deref = 0 // Go selects fields through pointers
			x += "." + s.Name
		case StepIndex:
			flush(true)
			x += "[" + strconv.Itoa(s.N) + "]"
		case StepDeref:
			deref++
		case StepLen:
			flush(false)
			x = "len(" + x + ")"
		case StepChoice:
			flush(false)
			x += " != nil"
		case StepType:
			flush(true)
			x += ".(type)"
		case StepMessage:
			flush(true)
			x += ".Error()"
		case StepArg:
			flush(true)
			x += "." + s.Name
		case StepCall:
			flush(true)
			x += ".call[" + strconv.Itoa(s.N) + "]"
		case StepMapKey:
			flush(false)
			x = "key(" + x + ", " + strconv.Itoa(s.N) + ")"
		case StepMapValue:
			flush(false)
			x = "value(" + x + ", " + strconv.Itoa(s.N) + ")"
		case StepPool:
			flush(true)
			x += ".pool[" + strconv.Itoa(s.N) + "]"
		}
	}
	flush(false)
	return x
}

// keyShape reports whether shape i can be a map key's: a scalar other than
// a float, or a struct or array of such (the tables compare them leaf by
// leaf, rt/mapkeys.go).
func (l *Layout) keyShape(i, depth int) bool {
	if i < 0 || i >= len(l.Shapes) || depth > 8 {
		return false
	}
	s := &l.Shapes[i]
	switch s.Kind {
	case ShapeScalar:
		return !s.Float
	case ShapeArray:
		return l.keyShape(s.Elem, depth+1)
	case ShapeStruct:
		for _, f := range s.Fields {
			if !l.keyShape(f.Shape, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
