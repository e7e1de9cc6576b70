package rt

import (
	"fmt"
	"strconv"
)

// The input model.
//
// A target's inputs are described once, by the coordinator, as a Layout:
// a table of shapes that follows the Go types of the parameters (a table,
// so that recursive types such as a list node pointing to its own type
// stay finite). The coordinator builds it from go/types when it loads the
// package (internal/load) and sends it to the worker in the Setup message;
// the worker checks it against the reflect types of the target and builds
// argument values from it; exploration and the solver see it flattened
// into Leaves; emit walks it to write the rows' values as Go literals.
// Nothing else derives a layout from a type.
//
// Flattening (Layout.Leaves) visits the parameters in order and each
// shape as follows:
//
//   - ShapeScalar (bool, integer kinds, string): one leaf; strings are at
//     most MaxLen bytes long; a float32 or float64 (Float) is one leaf of
//     its IEEE 754 bits (see Shape.Float);
//   - ShapeArray: the leaves of its Len elements;
//   - ShapeSlice: a length leaf (kind KInt, IsLen, 0 <= len <= MaxLen),
//     then the leaves of MaxLen elements, of which the first len are used;
//     a length of 0 is the nil slice;
//   - ShapeMap (keys of an integer, bool or string type, values of any
//     shape; the fields of struct values lose their shadows in the map,
//     which the worker records as a concretization): a length leaf
//     (kind KInt, IsLen, 0 <= len <= MaxLen; a choice: the worker records
//     "len == 0", "len == 1", ... up to the length), then for each of MaxLen
//     slots the leaves of a key and of a value, of which the first len
//     slots are used; a length of 0 is the nil map. Slots are stored in
//     order, so a key equal to an earlier one replaces its value (the map
//     is smaller); whether it does is recorded as branches of the run
//     (site 0), so the search tells equal keys from distinct ones;
//   - ShapeStruct: the leaves of its fields in order, blank fields left out;
//   - ShapePointer: a choice leaf (kind KBool, Choice: true means a fresh
//     object, false nil; none when NonNil), then the leaves of the pointee — unless the
//     pointee's shape already occurs Depth times among the pointees on the
//     way from the parameter: then the pointer is nil and has no leaves;
//   - ShapeError (the error interface): a choice leaf (nil or not), then a
//     string leaf, the message of errors.New;
//   - ShapeContext (context.Context): no leaves, context.Background();
//   - ShapeWriter (io.Writer): no leaves, a fresh bytes.Buffer;
//   - ShapeReader (io.Reader): a length leaf (kind KInt, IsLen, 0 <= len
//     <= MaxLen), then MaxLen byte leaves (kind KUint8), of which the
//     first len are the bytes the reader yields: a reader of this
//     package (see reader.go) whose Read copies them with their shadows;
//   - ShapeChan (a channel): for a channel the target can receive from
//     (chan T, <-chan T), a length leaf (kind KInt, IsLen, 0 <= len <=
//     MaxLen), then the leaves of MaxLen elements, of which the first len
//     are buffered in the channel (of capacity len), which is then closed,
//     so that a range over it ends (a channel that is never closed would
//     block the worker forever; a nil channel too, so none is offered); a
//     send-only channel (chan<- T, Send) has no leaves: an empty channel
//     with room for MaxLen values (a send beyond them blocks);
//   - ShapeFunc (a func value): a choice leaf (nil or a stub), then for
//     each of Len scripted calls the leaves of its results (Outs): the
//     stub's i-th call returns the i-th results, later calls the last
//     ones; its arguments are ignored; a sandbox stub (Sandbox, an
//     isolated call site, see sandbox.go) has no choice leaf, and after
//     its results the pointees it writes through pointer arguments
//     (Writes);
//   - ShapeAny (the empty interface): a choice of dynamic type (kind KInt,
//     IsLen: 0 for nil, j for Outs[j-1], scalar shapes), then the leaves
//     of every alternative (only the chosen one's are used);
//   - ShapeIface (a non-empty interface, see docs/mocks.md): unless the
//     shape already occurs Depth times among the interfaces on the way
//     from the parameter (then the value is nil and has no leaves), a
//     choice of dynamic type (kind KInt, IsLen: 0 for nil, j for
//     Outs[j-1]: a type of the package or a generated mock), then the
//     leaves of every alternative (only the chosen one's are used), or,
//     for a pooled interface (Pool), one pool of leaves the chosen
//     alternative reads its leaves in (see pool.go); a parameter holds
//     at most MaxLen generated mock values (the node bound: past it a
//     mock value is nil, see mock.go);
//   - ShapeMock (a generated mock type): for each method with results,
//     for each of Mock.Calls scripted calls, the leaves of its results;
//     none for a mock without scripts;
//   - ShapeVar (a package-level variable, such as io.EOF, offered as a
//     dynamic value of an interface): no leaves; the worker finds the
//     value under "="+Type among the harness's values (with Wrap, an
//     error variable wrapped by fmt.Errorf(WrapFormat, v));
//   - ShapeTypeOf (a reflect.Type offered as the dynamic value of a
//     reflect.Type input): no leaves; the type served under "#"+Type;
//   - ShapeBuilt (a value of the package's type made by calls, see Build):
//     the leaves of the constructor's parameters, then for each of
//     Build.Steps calls a choice of method (kind KInt, IsLen, 0 for "no
//     more calls", j for Methods[j-1]) followed by the leaves of every
//     method's parameters (only the chosen one's are used).
//
// Cutting. A collection (ShapeSlice, ShapeMap, ShapeReader, ShapeChan)
// has MaxLen element slots, so collections nested in collections
// multiply: a []Env of []Server of []int has MaxLen^3 leaves. When no
// unfolding Depth keeps a layout within MaxLeaves, SetBounds (in
// internal/load) copies the shapes reached through the elements of a
// collection (Shape.Of) and gives the copied collections fewer slots
// (Shape.Max, see Slots); every walk of the layout reads Slots, so all
// agree on the leaves. Their length leaves are marked Cut, and a target
// with such leaves is never reported exhaustive.
//
// The worker records every choice leaf as a branch of the run (site 0,
// see InputSite), so the search explores both answers like any other
// branch, and the path condition says which one a row took. A slice whose
// elements hold choices also records, before each element it builds,
// the branch "i < len": which choices a run makes then follows from the
// branches before them, as the search requires of every run (else a new
// length would shift the choices of the elements and look like a
// divergence).

// WrapFormat is the format that wraps an error variable offered wrapped
// (Shape.Wrap): the worker and the generated tests write the same error.
const WrapFormat = "wrapped: %w"

// InputSite is the branch site of the choices made when the worker builds
// the inputs (a pointer nil or not). No instrumented branch has it.
const InputSite = 0

// A Layout describes the inputs of one target.
type Layout struct {
	Params []Param // the parameters after the *testing.T, in order
	// Results are the results of an automatic target (a function or
	// method of the package called directly) whose values the worker
	// reports, in the same flattened form as inputs (see Result.Outputs).
	// A result that cannot be described has no entry: Results is empty
	// then, and nothing is reported.
	Results []Param
	// After lists the parameters (by index) whose values after the call
	// an automatic target reports too, after its results: pointers and
	// slices, through which a function or method changes its inputs (a
	// pointer receiver's state after Push).
	After []int
	// AfterShapes are the shapes After's parameters are reported in: their
	// own, or for a built one (ShapeBuilt) a field-by-field shape of its
	// type.
	AfterShapes []int
	// Observers are methods called, after the call, on parameters whose
	// state is not reported (not in After): read-only methods without
	// parameters and with one result (Len, String), whose results an
	// automatic target reports after After's values, so that its
	// generated test can assert what the package itself lets a caller
	// observe.
	Observers []Observer
	Shapes    []Shape // referenced by index from Params and from each other
	MaxLen    int     // bound on the length of strings and slices
	// Depth bounds the unfolding of recursive types: how many times a
	// shape may be the pointee of pointers on the way from a parameter.
	Depth int
}

// An Observer is a method called on a parameter after the call.
type Observer struct {
	Param  int    // the parameter it is called on, by index
	Method string // the method's name
	Shape  int    // the shape of its result
}

// A Param is one parameter of a target.
type Param struct {
	Name  string // as declared ("" or "_" for unnamed ones)
	Shape int
	// Sandbox is, for an isolated call site's results (a ShapeFunc with
	// Sandbox set), its key in the sandbox registry (see Sandbox): the
	// worker sets the site's variable instead of passing an argument.
	// Sandbox parameters come after the target's own.
	Sandbox string
}

// ShapeKind says how a value is built.
type ShapeKind uint8

const (
	ShapeInvalid ShapeKind = iota
	ShapeScalar
	ShapeArray
	ShapeSlice
	ShapeStruct
	ShapePointer
	ShapeError
	ShapeContext
	ShapeWriter
	ShapeBuilt
	ShapeFunc
	ShapeAny
	ShapeMap
	ShapeReader
	ShapeChan
	ShapeIface
	ShapeMock
	ShapeVar
	ShapeTypeOf
)

var shapeKindNames = [...]string{"invalid", "scalar", "array", "slice", "struct", "pointer", "error", "context", "writer", "built", "func", "any", "map", "reader", "chan", "iface", "mock", "var", "typeof"}

func (k ShapeKind) String() string {
	if int(k) < len(shapeKindNames) {
		return shapeKindNames[k]
	}
	return "ShapeKind(" + strconv.Itoa(int(k)) + ")"
}

// A Shape is one node of a layout.
type Shape struct {
	Kind ShapeKind
	Type string // the Go type, for messages
	K    Kind   // ShapeScalar: the leaf's kind
	// Float marks a ShapeScalar of a floating-point type: its leaf (K
	// KUint32 for float32, KUint64 for float64) holds the IEEE 754 bits.
	// The input's shadow reinterprets those bits as a float
	// (OpFromBits), so the solver chooses a float's exact bits.
	Float  bool
	Len    int     // ShapeArray: the number of elements
	Elem   int     // ShapeArray, ShapeSlice, ShapePointer, ShapeChan: the element's shape; ShapeMap: the value's
	Key    int     // ShapeMap: the key's shape (a scalar)
	Fields []Field // ShapeStruct: the fields that get values, in order
	Build  *Build  // ShapeBuilt: how the value is made
	Outs   []int   // ShapeFunc: the shapes of the results (Len is the number of scripted calls); ShapeAny: the dynamic types offered
	Send   bool    // ShapeChan: a send-only channel (chan<- T), which has no leaves
	// Mock describes a ShapeMock: a mock type generated for the package
	// (internal/mock), whose methods return scripted results.
	Mock *Mock
	// Sandbox marks the ShapeFunc of an isolated call site (sandbox.go):
	// always a stub (no choice leaf). Writes are the indices of its
	// pointer parameters whose pointees each call sets: Outs holds the
	// results, then one pointee shape per entry of Writes.
	Sandbox bool
	Writes  []int
	// NonNil marks a ShapePointer that is never nil (no choice leaf): a
	// concrete error type among the errors of an isolated call's result,
	// which no real callee returns as a typed nil.
	NonNil bool
	// Wrap marks a ShapeVar served wrapped in another error, as
	// fmt.Errorf(WrapFormat, v) makes it: errors.Is finds the variable
	// through it, == does not.
	Wrap bool
	// Max is, for a ShapeSlice, ShapeMap, ShapeReader or ShapeChan, its
	// number of element slots when it has fewer than Layout.MaxLen (0:
	// MaxLen; see Slots). SetBounds gives fewer to the copies of the
	// shapes that sit inside the elements of other collections when the
	// layout would exceed MaxLeaves otherwise (see "Cutting" below).
	Max int
	// Of is, for such a copy, 1 + the index of the shape it copies; 0 for
	// a shape of its own.
	Of int
	// Pool marks a ShapeIface whose alternatives share one pool of
	// leaves (see pool.go): SetBounds sets it when the layout would not
	// fit MaxLeaves with their leaves side by side.
	Pool bool
}

// Slots is the number of element slots of s, a ShapeSlice, ShapeMap,
// ShapeReader or ShapeChan: the largest length its values may have.
func (l *Layout) Slots(s *Shape) int {
	if s.Max > 0 && s.Max < l.MaxLen {
		return s.Max
	}
	return l.MaxLen
}

// Mock describes the values of a generated mock type: the worker finds
// the type under "#"+Shape.Type among the harness's values, and fills
// the fields holding its methods' scripted results.
type Mock struct {
	Ptr     bool         // values are pointers to the type
	Scripts bool         // the type holds scripts (a struct); else its methods return zero values
	Methods []MockMethod // its methods with results, in the type's order
	Calls   int          // the scripted calls per method (set by SetBounds)
	// NumMethods is the number of methods, the length of the type's
	// call counters.
	NumMethods int
}

// MockMethod is a method of a mock type that returns results.
type MockMethod struct {
	Name  string // the method
	Field string // the field holding its results, one element per call
	Outs  []int  // the shapes of its results
	// Multi says an element is a struct of the results (more than one).
	Multi bool
	// Once says the method has one scripted call, whose results every
	// call returns: Unwrap() error, since an error wraps one error
	// however often errors.Is and errors.As walk its chain.
	Once bool
}

// CallsOf is the number of scripted calls of method md.
func (m *Mock) CallsOf(md *MockMethod) int {
	if md.Once {
		return min(1, m.Calls)
	}
	return m.Calls
}

// Build says how a ShapeBuilt value is made: by calling Ctor (a
// constructor of the package, which returns the value first, and at most
// an error besides; with an empty Expr, the zero value, for a
// type whose zero value is ready to use), then up to Steps methods of the result,
// each chosen among Methods by a leaf. A constructor or method that
// panics or returns a non-nil error rejects the input (the run is
// skipped, as a PUT's t.Skip would). Constructors come first because
// they establish the invariants that the package's code relies on and
// that a value built field by field may break.
type Build struct {
	Ctor    Func
	Methods []Func
	Steps   int
	// Deref says the constructor returns *T for a value of type T: the
	// methods are called on the pointer, and the value is its pointee.
	Deref bool
	// Addr says the constructor returns T for a value of type *T: the
	// value points to a copy of its result (a method of another type
	// that makes iterators by value, (*List).Iterator).
	Addr bool
	// Unmade says, for a value built from the zero value (no Ctor), that
	// the package never makes a zero value of the type itself (no var
	// x T, T{} or new(T) in its code, no doc comment calling the zero
	// value ready to use, no method that checks a field for nil): the
	// run records it (Result.Unmade).
	Unmade bool
}

// Func is a function a Build calls.
type Func struct {
	Expr       string   // the function in its package, the key the worker finds it under: "New", "(*Table).Set"
	Name       string   // what emit calls: "New", or the method's name "Set"
	ParamNames []string // for paths and messages
	Params     []int    // the shapes of its parameters (a method's: after the receiver)
	Err        bool     // its last result is an error
	// Variadic says its last parameter is variadic (...T): its shape is
	// a []T's, and the worker passes the slice spread (CallSlice).
	Variadic bool
}

// A Field is a struct field that gets a value.
type Field struct {
	Name  string
	Index int // the field's index in the struct type (blank fields count)
	Shape int
}

// StepKind is one kind of step of a leaf's access path.
type StepKind uint8

const (
	StepField    StepKind = iota + 1 // .Name of a struct
	StepIndex                        // [N] of an array or slice
	StepLen                          // the length of a slice
	StepDeref                        // the pointee of a pointer
	StepChoice                       // whether a pointer or error is non-nil
	StepMessage                      // the message of an error
	StepArg                          // argument N of the constructor (Name) or of a call's method (Name)
	StepCall                         // call N of a built value: its method choice, or (followed by StepArg) an argument
	StepType                         // the dynamic type of an interface value (0 for nil, j for the j-th offered)
	StepMapKey                       // the key of slot N of a map
	StepMapValue                     // the value of slot N of a map
)

// A Step is one step of a leaf's access path from its parameter.
type Step struct {
	Kind StepKind
	N    int    // StepIndex
	Name string // StepField
	// Alt is, for a StepArg of one of several alternatives (a method a
	// built value's call may choose, a dynamic type of an interface), the
	// value of the choice leaf that selects it (Methods[Alt-1],
	// Outs[Alt-1]); 0 for an argument that is always used.
	Alt int
}

// Leaf is one scalar of a target's input vector (see Layout for the
// flattening rule).
type Leaf struct {
	Param  int    // the parameter the leaf belongs to
	Steps  []Step // the access path from the parameter
	Path   string // the path written as Go, e.g. "a[2].x", "len(xs)", "p != nil"
	K      Kind
	IsLen  bool // a slice length
	Choice bool // a construction choice: non-nil (true) or nil (false)
	Max    int  // for lengths and strings: the largest allowed length
	Float  bool // the IEEE 754 bits of a float32 (K KUint32) or float64 (K KUint64)
	// Cut marks the length of a collection given fewer slots than
	// MaxLen to keep the layout within MaxLeaves (Shape.Max): longer
	// values of it are outside the explored domain, and the verdict is
	// not exhaustive.
	Cut bool
}

// Check reports whether the layout is well formed: shape indices in
// range, and each kind with the parts it needs.
func (l *Layout) Check() error {
	valid := func(i int) bool { return i >= 0 && i < len(l.Shapes) }
	if len(l.AfterShapes) != len(l.After) {
		return fmt.Errorf("layout: %d shapes for %d reported parameters", len(l.AfterShapes), len(l.After))
	}
	for k, i := range l.After {
		if i < 0 || i >= len(l.Params) || !valid(l.AfterShapes[k]) {
			return fmt.Errorf("layout: reported parameter %d of %d", i, len(l.Params))
		}
	}
	for _, p := range append(l.Params[:len(l.Params):len(l.Params)], l.Results...) {
		if !valid(p.Shape) {
			return fmt.Errorf("layout: parameter %s has shape %d of %d", p.Name, p.Shape, len(l.Shapes))
		}
	}
	for i, s := range l.Shapes {
		switch s.Kind {
		case ShapeScalar:
			if s.K == KInvalid {
				return fmt.Errorf("layout: shape %d (%s) has no kind", i, s.Type)
			}
		case ShapeArray, ShapeSlice, ShapePointer, ShapeChan:
			if !valid(s.Elem) || s.Kind == ShapeArray && s.Len < 0 {
				return fmt.Errorf("layout: shape %d (%s) has a bad element", i, s.Type)
			}
		case ShapeMap:
			if !valid(s.Elem) || !valid(s.Key) || !l.keyShape(s.Key, 0) {
				return fmt.Errorf("layout: shape %d (%s) has a bad key or value", i, s.Type)
			}
		case ShapeStruct:
			for _, f := range s.Fields {
				if !valid(f.Shape) {
					return fmt.Errorf("layout: field %s of shape %d (%s) has a bad shape", f.Name, i, s.Type)
				}
			}
		case ShapeError, ShapeContext, ShapeWriter, ShapeReader, ShapeVar, ShapeTypeOf:
		case ShapeIface:
			for _, o := range s.Outs {
				if !valid(o) {
					return fmt.Errorf("layout: shape %d (%s) has a bad dynamic type", i, s.Type)
				}
			}
		case ShapeMock:
			if s.Mock == nil {
				return fmt.Errorf("layout: shape %d (%s) is a mock without a Mock", i, s.Type)
			}
			for _, m := range s.Mock.Methods {
				for _, o := range m.Outs {
					if !valid(o) {
						return fmt.Errorf("layout: method %s of shape %d (%s) has a bad result", m.Name, i, s.Type)
					}
				}
			}
		case ShapeFunc, ShapeAny:
			for _, o := range s.Outs {
				if !valid(o) || s.Kind == ShapeAny && l.Shapes[o].Kind != ShapeScalar {
					return fmt.Errorf("layout: shape %d (%s) has a bad result or dynamic type", i, s.Type)
				}
			}
		case ShapeBuilt:
			if s.Build == nil {
				return fmt.Errorf("layout: shape %d (%s) is built without a Build", i, s.Type)
			}
			for _, fn := range append([]Func{s.Build.Ctor}, s.Build.Methods...) {
				for _, p := range fn.Params {
					if !valid(p) {
						return fmt.Errorf("layout: %s of shape %d (%s) has a bad parameter", fn.Expr, i, s.Type)
					}
				}
			}
		default:
			return fmt.Errorf("layout: shape %d (%s) has kind %s", i, s.Type, s.Kind)
		}
	}
	if l.MaxLen < 0 || l.Depth < 0 {
		return fmt.Errorf("layout: negative bound")
	}
	return nil
}

// Choices reports for each shape whether values of it contain choice
// leaves (pointers, errors).
func (l *Layout) Choices() []bool {
	has := make([]bool, len(l.Shapes))
	for changed := true; changed; {
		changed = false
		for i, s := range l.Shapes {
			if has[i] {
				continue
			}
			switch s.Kind {
			case ShapePointer, ShapeError, ShapeBuilt, ShapeFunc, ShapeAny, ShapeIface, ShapeMock:
				has[i] = true
			case ShapeArray, ShapeSlice, ShapeMap:
				has[i] = has[s.Elem]
			case ShapeChan:
				has[i] = !s.Send && has[s.Elem]
			case ShapeStruct:
				for _, f := range s.Fields {
					has[i] = has[i] || has[f.Shape]
				}
			}
			changed = changed || has[i]
		}
	}
	return has
}
