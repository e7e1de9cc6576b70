// Package mock describes the mock types dowse generates for values of
// interface type (docs/mocks.md) and writes their Go source: the version
// compiled into the worker, whose methods hand their scripted results to
// the runtime with their shadows, and the version written into generated
// tests, whose methods read the same fields. Both versions declare the
// same type with the same fields and tags, so type assertions and
// reflection in the code under test see the same type in a run and in
// the generated test.
package mock

import (
	"bytes"
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Form is the shape of a mock type's declaration.
type Form uint8

const (
	// Struct: a struct holding the scripted results of its methods.
	Struct Form = iota
	// Empty: a struct without fields (reflect's NumField is 0); its
	// methods return zero values.
	Empty
	// NonStruct: a named int (reflect's Kind is not Struct); its
	// methods return zero values.
	NonStruct
	// Annotated: a struct without methods whose one field has a type
	// of the package, embedded and tagged (the Go form of an
	// annotation: type T struct{ jme.Serializable `id:"7"` }) or named
	// after its type; offered as a reflect.Type.
	Annotated
)

// A Type is one generated mock type.
type Type struct {
	Name string
	// Named is its go/types type (fields, not methods): emit writes its
	// values with it.
	Named *types.Named
	Ptr   bool // values are *Name and the methods have pointer receivers
	Form  Form
	// Tag is the tag of the first field (a Struct): the "annotation"
	// code reading struct tags by reflection looks for.
	Tag        string
	Implements []string      // the interfaces it is made for, for its doc comment
	Methods    []*types.Func // the methods, sorted by name
	// Fields are, per method, the field holding its scripted results
	// ("" for a method without results or a form without scripts).
	Fields []string
	// Results are, per method with more than one result, the named
	// struct type of one call's results (nil otherwise).
	Results []*types.Named
	// Fills marks, per method, a Read-like method (Read(p []byte) (n
	// int, err error), io.Reader's contract): its result struct has a
	// last field p, the bytes each call copies into its argument.
	Fills []bool
	// helpers are the names of the recorder's helpers in the package
	// (nil: DefaultHelpers).
	helpers *Helpers
}

// FillsArg reports whether a method of signature sig writes solved bytes
// into its argument: io.Reader's Read(p []byte) (n int, err error).
func FillsArg(name string, sig *types.Signature) bool {
	if name != "Read" || sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	s, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(s.Elem(), types.Typ[types.Byte]) {
		return false
	}
	n, ok := sig.Results().At(0).Type().(*types.Basic)
	return ok && n.Kind() == types.Int && types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// Unwraps reports whether a method of signature sig is Unwrap() error,
// the contract of an error wrapping another: it has one scripted
// result, returned by every call, as errors.Is and errors.As may walk a
// chain several times.
func Unwraps(name string, sig *types.Signature) bool {
	return name == "Unwrap" && sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
}

// Scripted reports whether the mock's methods return scripted results.
func (m *Type) Scripted() bool { return m.Form == Struct }

// ValueType is the type of the mock's values: *Name or Name.
func (m *Type) ValueType() types.Type {
	if m.Ptr {
		return types.NewPointer(m.Named)
	}
	return m.Named
}

// New makes the mock type name of package pkg implementing methods (the
// method set of the interfaces named in implements), of the given form
// and tag. The names of its result types are name followed by a
// method's; a package's mock types are made with Names.New instead,
// which keeps every name unique.
func New(pkg *types.Package, name string, implements []string, methods []*types.Func, ptr bool, form Form, tag string) *Type {
	return newType(pkg, name, implements, methods, ptr, form, tag, func(n string) string { return n }, nil)
}

// newType is New with the names of result types chosen by free and the
// helpers' names h (nil: the default ones).
func newType(pkg *types.Package, name string, implements []string, methods []*types.Func, ptr bool, form Form, tag string, free func(string) string, h *Helpers) *Type {
	m := &Type{Name: name, Ptr: ptr, Form: form, Tag: tag, Implements: implements, Methods: methods, helpers: h}
	obj := types.NewTypeName(token.NoPos, pkg, name, nil)
	m.Named = types.NewNamed(obj, nil, nil)
	switch form {
	case NonStruct:
		m.Named.SetUnderlying(types.Typ[types.Int])
		m.Fields = make([]string, len(methods))
		m.Results = make([]*types.Named, len(methods))
		return m
	case Empty:
		m.Named.SetUnderlying(types.NewStruct(nil, nil))
		m.Fields = make([]string, len(methods))
		m.Results = make([]*types.Named, len(methods))
		return m
	}
	var fields []*types.Var
	var tags []string
	if tag != "" {
		fields = append(fields, types.NewField(token.NoPos, pkg, "_", types.NewStruct(nil, nil), false))
		tags = append(tags, tag)
	}
	taken := map[string]bool{"calls": true, "_": true, "got": true}
	for _, fn := range methods {
		// A field may not have a method's name: an unexported method's
		// field would (typeString() string).
		taken[fn.Name()] = true
	}
	for _, fn := range methods {
		sig := fn.Type().(*types.Signature)
		var f string
		var res *types.Named
		if n := sig.Results().Len(); n > 0 {
			f = lowerFirst(fn.Name())
			for taken[f] || token.IsKeyword(f) {
				f += "_"
			}
			taken[f] = true
			elem := sig.Results().At(0).Type()
			if n > 1 {
				rn := types.NewTypeName(token.NoPos, pkg, free(name+fn.Name()), nil)
				res = types.NewNamed(rn, nil, nil)
				var rf []*types.Var
				for i, r := range ResultNames(sig) {
					rf = append(rf, types.NewField(token.NoPos, pkg, r, sig.Results().At(i).Type(), false))
				}
				if FillsArg(fn.Name(), sig) {
					rf = append(rf, types.NewField(token.NoPos, pkg, fillField(sig), sig.Params().At(0).Type(), false))
				}
				res.SetUnderlying(types.NewStruct(rf, nil))
				elem = res
			}
			fields = append(fields, types.NewField(token.NoPos, pkg, f, types.NewSlice(elem), false))
			tags = append(tags, "")
		}
		m.Fields = append(m.Fields, f)
		m.Results = append(m.Results, res)
		m.Fills = append(m.Fills, FillsArg(fn.Name(), sig))
	}
	var calls types.Type = types.NewArray(types.Typ[types.Int], int64(max(1, len(methods))))
	if !ptr {
		calls = types.NewPointer(calls) // shared by the copies a value receiver gets
	}
	fields = append(fields, types.NewField(token.NoPos, pkg, "calls", calls, false))
	tags = append(tags, "")
	if ptr {
		// The calls made, written out (RecorderSource): a pointer mock
		// records them; a value form's copies would not share them.
		fields = append(fields, types.NewField(token.NoPos, pkg, "got", types.NewSlice(types.Typ[types.String]), false))
		tags = append(tags, "")
	}
	m.Named.SetUnderlying(types.NewStruct(fields, tags))
	return m
}

// Records reports whether the mock records the calls made to it (its
// field got, written by RecordCall): pointer mocks with scripts.
func (m *Type) Records() bool { return m.Scripted() && m.Ptr }

// Helpers are the names of the functions RecorderSource declares in a
// package: RecordCall, with which a mock records a call, CallsOf, with
// which a generated test reads the calls recorded, and FormatArg, which
// writes an argument for RecordCall.
type Helpers struct {
	RecordCall, CallsOf, FormatArg string
}

// DefaultHelpers are the helpers' names where the package declares none
// of them.
var DefaultHelpers = Helpers{RecordCall: "dowseRecordCall", CallsOf: "dowseCallsOf", FormatArg: "dowseFormatArg"}

// Helpers returns the names of the recorder's helpers the mock's methods
// call.
func (m *Type) Helpers() Helpers {
	if m.helpers == nil {
		return DefaultHelpers
	}
	return *m.helpers
}

// Names chooses the names of the declarations dowse generates in one
// package (variant): its mock types, their result types and the
// recorder's helpers. The worker harness and the generated tests declare
// the same types under the same names, and a package's own declarations
// share their scope, so every name must be one the package does not
// declare and no other generated declaration has. A name that is taken
// gets the first free numeric suffix; names are given in the order they
// are asked for, which depends only on the package's source, so the
// choice is deterministic.
type Names struct {
	taken   func(string) bool
	used    map[string]bool
	helpers Helpers
}

// NewNames returns the names of a package in which taken reports the
// names the package declares (nil: none). The helpers are named first,
// so that no mock type takes their names.
func NewNames(taken func(string) bool) *Names {
	if taken == nil {
		taken = func(string) bool { return false }
	}
	n := &Names{taken: taken, used: map[string]bool{}}
	n.helpers = Helpers{
		RecordCall: n.Free(DefaultHelpers.RecordCall),
		CallsOf:    n.Free(DefaultHelpers.CallsOf),
		FormatArg:  n.Free(DefaultHelpers.FormatArg),
	}
	return n
}

// Free returns name, or name<n> with the smallest n > 0, whichever the
// package does not declare and was not returned before, and records it
// as used.
func (n *Names) Free(name string) string {
	for i := 0; ; i++ {
		c := name
		if i > 0 {
			c += strconv.Itoa(i)
		}
		if !n.used[c] && !n.taken(c) {
			n.used[c] = true
			return c
		}
	}
}

// Helpers returns the names of the recorder's helpers in the package.
func (n *Names) Helpers() Helpers { return n.helpers }

// New makes a mock type as New does, named base or base<n> (Free), its
// result types named likewise.
func (n *Names) New(pkg *types.Package, base string, implements []string, methods []*types.Func, ptr bool, form Form, tag string) *Type {
	return newType(pkg, n.Free(base), implements, methods, ptr, form, tag, n.Free, &n.helpers)
}

// NewAnnotated makes a type as NewAnnotated does, named base or base<n>
// (Free).
func (n *Names) NewAnnotated(pkg *types.Package, base string, field *types.Named, embedded, ptr bool, tag string) *Type {
	return NewAnnotated(pkg, n.Free(base), field, embedded, ptr, tag)
}

// MaxRecorded is how many calls a mock records; a later call adds "…"
// once.
const MaxRecorded = 16

// RecorderSource writes the helpers with which mocks record their calls,
// declared once per package in the worker harness and in the generated
// tests' mock file, from this one source so that a run and a test write
// a call the same way: RecordCall appends "Method(arg, ...)" to a mock's
// got; arguments are written by reflection alone (no String or Error
// method of the code under test runs): numbers, strings, booleans,
// slices, arrays and structs of them by value, []byte as a string, nil
// as nil, other pointers, maps, funcs and channels by their type
// (addresses differ from run to run). CallsOf, with the pointer mock types of
// records, returns the calls a value recorded, nil for any other value.
// h names the helpers; q names the packages reflect, strconv and strings.
func RecorderSource(q types.Qualifier, h Helpers, records []*Type) string {
	pkg := func(path string) string { return q(types.NewPackage(path, path)) }
	reflect, strconv, strings := pkg("reflect"), pkg("strconv"), pkg("strings")
	var b bytes.Buffer
	fmt.Fprintf(&b, `
// %[1]s appends the call of method with args, written out, to the calls a
// mock generated by dowse recorded (at most %[5]d, then "…").
func %[1]s(got *[]string, method string, args ...any) {
	switch {
	case len(*got) > %[5]d:
		return
	case len(*got) == %[5]d:
		*got = append(*got, "…")
		return
	}
	var b %[4]s.Builder
	b.WriteString(method + "(")
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		%[6]s(&b, %[2]s.ValueOf(a), 0)
	}
	b.WriteString(")")
	*got = append(*got, b.String())
}

// %[6]s writes v for %[1]s.
func %[6]s(b *%[4]s.Builder, v %[2]s.Value, depth int) {
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	switch v.Kind() {
	case %[2]s.Bool:
		b.WriteString(%[3]s.FormatBool(v.Bool()))
	case %[2]s.Int, %[2]s.Int8, %[2]s.Int16, %[2]s.Int32, %[2]s.Int64:
		b.WriteString(%[3]s.FormatInt(v.Int(), 10))
	case %[2]s.Uint, %[2]s.Uint8, %[2]s.Uint16, %[2]s.Uint32, %[2]s.Uint64, %[2]s.Uintptr:
		b.WriteString(%[3]s.FormatUint(v.Uint(), 10))
	case %[2]s.Float32, %[2]s.Float64:
		b.WriteString(%[3]s.FormatFloat(v.Float(), 'g', -1, v.Type().Bits()))
	case %[2]s.Complex64, %[2]s.Complex128:
		b.WriteString(%[3]s.FormatComplex(v.Complex(), 'g', -1, v.Type().Bits()))
	case %[2]s.String:
		b.WriteString(%[3]s.Quote(v.String()))
	case %[2]s.Interface:
		%[6]s(b, v.Elem(), depth)
	case %[2]s.Slice, %[2]s.Array:
		if v.Kind() == %[2]s.Slice && v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Kind() == %[2]s.Slice && v.Type().Elem().Kind() == %[2]s.Uint8 {
			b.WriteString(%[3]s.Quote(string(v.Bytes())))
			return
		}
		if depth >= 3 || v.Len() > %[5]d {
			b.WriteString(v.Type().String() + "(len " + %[3]s.Itoa(v.Len()) + ")")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			%[6]s(b, v.Index(i), depth+1)
		}
		b.WriteString("]")
	case %[2]s.Struct:
		if depth >= 3 {
			b.WriteString(v.Type().String())
			return
		}
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			%[6]s(b, v.Field(i), depth+1)
		}
		b.WriteString("}")
	default:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString(v.Type().String())
	}
}
`, h.RecordCall, reflect, strconv, strings, MaxRecorded, h.FormatArg)
	if len(records) > 0 {
		fmt.Fprintf(&b, "\n// %s returns the calls a mock generated by dowse recorded, nil for\n// any other value.\nfunc %s(v any) []string {\n\tswitch m := v.(type) {\n", h.CallsOf, h.CallsOf)
		for _, m := range records {
			fmt.Fprintf(&b, "\tcase *%s:\n\t\treturn m.got\n", m.Name)
		}
		b.WriteString("\t}\n\treturn nil\n}\n")
	}
	return b.String()
}

// NewAnnotated makes the type name of package pkg: a struct whose one
// field has type field (*field if ptr), embedded with the given tag, or
// (if !embedded) named after its type, without tag.
func NewAnnotated(pkg *types.Package, name string, field *types.Named, embedded, ptr bool, tag string) *Type {
	m := &Type{Name: name, Form: Annotated, Tag: tag, Implements: []string{field.Obj().Name()}}
	m.Named = types.NewNamed(types.NewTypeName(token.NoPos, pkg, name, nil), nil, nil)
	var ft types.Type = field
	if ptr {
		ft = types.NewPointer(field)
	}
	f := types.NewField(token.NoPos, pkg, field.Obj().Name(), ft, embedded)
	m.Named.SetUnderlying(types.NewStruct([]*types.Var{f}, []string{tag}))
	return m
}

// ResultNames are the names of the fields of a multi-result struct: the
// results' own names when all have one, else r0, r1, ...
func ResultNames(sig *types.Signature) []string {
	names := make([]string, sig.Results().Len())
	seen := map[string]bool{"_": true}
	for i := range names {
		n := sig.Results().At(i).Name()
		if n == "" || seen[n] {
			for j := range names {
				names[j] = fmt.Sprintf("r%d", j)
			}
			return names
		}
		seen[n] = true
		names[i] = n
	}
	return names
}

// fillField is the name of the field of a Read-like method's results
// holding the bytes it copies into its argument: "data", unless a result
// is named so.
func fillField(sig *types.Signature) string {
	name := "data"
	for _, r := range ResultNames(sig) {
		if r == name {
			name += "_"
		}
	}
	return name
}

func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// Source writes the declarations of the mock type and of its result
// types as Go, naming other packages with q. With rt set (the name the
// worker harness imports the runtime under), the methods hand their
// results to the runtime (rt.MockResult), which gives them their
// shadows; without, they read the fields plainly, as generated tests do.
func (m *Type) Source(q types.Qualifier, rt string) string {
	var b bytes.Buffer
	ts := func(t types.Type) string { return types.TypeString(t, q) }
	what := strings.Join(m.Implements, ", ")
	switch m.Form {
	case Annotated:
		f := m.Named.Underlying().(*types.Struct).Field(0)
		how := "embeds"
		if !f.Embedded() {
			how = "has a field of type"
		}
		fmt.Fprintf(&b, "// %s is a type generated by dowse that %s %s.\ntype %s struct {\n\t", m.Name, how, ts(f.Type()), m.Name)
		if !f.Embedded() {
			b.WriteString(f.Name() + " ")
		}
		b.WriteString(ts(f.Type()))
		if m.Tag != "" {
			fmt.Fprintf(&b, " `%s`", m.Tag)
		}
		b.WriteString("\n}\n")
		return b.String()
	case NonStruct:
		fmt.Fprintf(&b, "// %s is a mock of %s generated by dowse: a type\n// that is not a struct, whose methods return zero values.\ntype %s int\n", m.Name, what, m.Name)
	case Empty:
		fmt.Fprintf(&b, "// %s is a mock of %s generated by dowse: a struct\n// without fields, whose methods return zero values.\ntype %s struct{}\n", m.Name, what, m.Name)
	default:
		fmt.Fprintf(&b, "// %s is a mock of %s generated by dowse: call i of a\n// method returns element i of its field (the last one after that, zero\n// values if the field is empty).\n", m.Name, what)
		fmt.Fprintf(&b, "type %s struct {\n", m.Name)
		st := m.Named.Underlying().(*types.Struct)
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			fmt.Fprintf(&b, "\t%s %s", f.Name(), ts(f.Type()))
			if tag := st.Tag(i); tag != "" {
				fmt.Fprintf(&b, " `%s`", tag)
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
	}
	for k, fn := range m.Methods {
		sig := fn.Type().(*types.Signature)
		recv := m.Name
		if m.Ptr {
			recv = "*" + m.Name
		}
		fills := m.Scripted() && k < len(m.Fills) && m.Fills[k]
		var params []string
		for i := 0; i < sig.Params().Len(); i++ {
			t := sig.Params().At(i).Type()
			if sig.Variadic() && i == sig.Params().Len()-1 {
				params = append(params, "..."+ts(t.(*types.Slice).Elem()))
			} else {
				params = append(params, ts(t))
			}
		}
		if fills {
			params[0] = "p " + params[0]
		}
		var results []string
		for i := 0; i < sig.Results().Len(); i++ {
			results = append(results, ts(sig.Results().At(i).Type()))
		}
		res := strings.Join(results, ", ")
		if !m.Scripted() && len(results) > 0 {
			// Named results: the methods return their zero values.
			var named []string
			for i, r := range results {
				named = append(named, fmt.Sprintf("r%d %s", i, r))
			}
			res = strings.Join(named, ", ")
		}
		if len(results) > 1 || !m.Scripted() && len(results) > 0 {
			res = "(" + res + ")"
		}
		if m.Records() {
			for i := range params {
				if i == 0 && fills {
					continue
				}
				params[i] = fmt.Sprintf("a%d %s", i, params[i])
			}
		}
		fmt.Fprintf(&b, "\nfunc (m %s) %s(%s) %s {\n", recv, fn.Name(), strings.Join(params, ", "), res)
		if m.Records() {
			args := []string{"&m.got", strconv.Quote(fn.Name())}
			for i := range params {
				if i == 0 && fills {
					args = append(args, "len(p)") // what Read is asked for, not what p held
				} else {
					args = append(args, fmt.Sprintf("a%d", i))
				}
			}
			fmt.Fprintf(&b, "\t%s(%s)\n", m.Helpers().RecordCall, strings.Join(args, ", "))
		}
		field := m.Fields[k]
		switch {
		case !m.Scripted():
			if rt != "" {
				fmt.Fprintf(&b, "\t%s.MockNone()\n", rt)
			}
			if len(results) > 0 {
				b.WriteString("\treturn\n")
			}
		case rt != "":
			if field == "" {
				fmt.Fprintf(&b, "\t%s.MockResult[struct{}](nil, &m.calls[%d], false)\n", rt, k)
				break
			}
			fmt.Fprintf(&b, "\tr := %s.MockResult(m.%s, &m.calls[%d], %t)\n", rt, field, k, m.Results[k] != nil)
			if fills {
				fmt.Fprintf(&b, "\t%s.MockFill(p, m.%s, m.calls[%d], %d)\n", rt, field, k, sig.Results().Len())
			}
			b.WriteString("\treturn " + m.returnList(k, sig) + "\n")
		default:
			if field == "" {
				fmt.Fprintf(&b, "\tm.calls[%d]++\n", k)
				break
			}
			fmt.Fprintf(&b, "\tvar r %s\n", ts(m.Named.Underlying().(*types.Struct).Field(m.fieldIndex(field)).Type().(*types.Slice).Elem()))
			fmt.Fprintf(&b, "\tif n := len(m.%s); n > 0 {\n\t\ti := m.calls[%d]\n\t\tif i >= n {\n\t\t\ti = n - 1\n\t\t}\n\t\tr = m.%s[i]\n\t}\n", field, k, field)
			fmt.Fprintf(&b, "\tm.calls[%d]++\n", k)
			if fills {
				fmt.Fprintf(&b, "\tcopy(p, r.%s)\n", fillField(sig))
			}
			b.WriteString("\treturn " + m.returnList(k, sig) + "\n")
		}
		b.WriteString("}\n")
	}
	for k, r := range m.Results {
		if r == nil {
			continue
		}
		sig := m.Methods[k].Type().(*types.Signature)
		fmt.Fprintf(&b, "\n// %s is one call's results of %s.%s.\ntype %s struct {\n", r.Obj().Name(), m.Name, m.Methods[k].Name(), r.Obj().Name())
		for i, n := range ResultNames(sig) {
			fmt.Fprintf(&b, "\t%s %s\n", n, ts(sig.Results().At(i).Type()))
		}
		if m.Fills[k] {
			fmt.Fprintf(&b, "\t%s %s // the bytes the call copies into its argument\n", fillField(sig), ts(sig.Params().At(0).Type()))
		}
		b.WriteString("}\n")
	}
	return b.String()
}

func (m *Type) returnList(k int, sig *types.Signature) string {
	if m.Results[k] == nil {
		return "r"
	}
	var out []string
	for _, n := range ResultNames(sig) {
		out = append(out, "r."+n)
	}
	return strings.Join(out, ", ")
}

func (m *Type) fieldIndex(name string) int {
	st := m.Named.Underlying().(*types.Struct)
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == name {
			return i
		}
	}
	return -1
}
