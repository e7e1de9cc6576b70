package emit

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dowse-go/dowse/rt"
)

// renderer writes values as Go expressions valid in the generated file's
// package.
type renderer struct {
	self    string // path of the generated file's package
	imports *importSet
	consts  map[*types.TypeName][]*types.Const // per named type, its accessible constants
	// generics says that the package's language version has generic
	// functions (go1.18; reflect.TypeFor is in go1.22's library).
	generics bool
}

func newRenderer(self string, imports *importSet) *renderer {
	return &renderer{self: self, imports: imports, consts: map[*types.TypeName][]*types.Const{}}
}

func (r *renderer) typeString(t types.Type) string {
	return types.TypeString(t, r.imports.qualifier)
}

// lineWidth is the width beyond which a composite literal is broken over
// several lines.
const lineWidth = 100

// lit renders v. If elided, v is an element of an array or slice literal,
// so its composite type and a conversion to its named type are left out.
func (r *renderer) lit(v *value, elided bool) string {
	if v.kind != rt.KInvalid {
		return r.scalar(v, elided)
	}
	switch v.shape {
	case rt.ShapePointer:
		return r.pointer(v, elided)
	case rt.ShapeError:
		if v.isNil {
			return "nil"
		}
		return r.pkg("errors") + ".New(" + quoteString(v.str) + ")"
	case rt.ShapeContext:
		return r.pkg("context") + ".Background()"
	case rt.ShapeWriter:
		return "new(" + r.pkg("bytes") + ".Buffer)"
	case rt.ShapeReader:
		return r.pkg("strings") + ".NewReader(" + strconv.Quote(v.str) + ")"
	case rt.ShapeChan:
		return r.channel(v)
	case rt.ShapeBuilt:
		return r.built(v)
	case rt.ShapeFunc:
		if v.isNil {
			return "nil"
		}
		return r.stub(v)
	case rt.ShapeTypeOf:
		if !r.generics {
			return r.pkg("reflect") + ".TypeOf((*" + r.typeString(v.t) + ")(nil)).Elem()"
		}
		return r.pkg("reflect") + ".TypeFor[" + r.typeString(v.t) + "]()"
	case rt.ShapeVar:
		name := v.vr.Name()
		if q := r.imports.qualifier(v.vr.Pkg()); q != "" {
			name = q + "." + name
		}
		if v.wrap {
			return r.pkg("fmt") + ".Errorf(" + strconv.Quote(rt.WrapFormat) + ", " + name + ")"
		}
		return name
	case rt.ShapeIface:
		if v.isNil {
			return "nil"
		}
		if s := r.dynLit(v.dyn); s != "nil" || v.dyn.shape == rt.ShapeError {
			return s
		}
		return "(" + r.typeString(v.dyn.t) + ")(nil)" // a typed nil

	case rt.ShapeAny:
		if v.isNil {
			return "nil"
		}
		return r.dynLit(v.dyn)
	}
	switch u := types.Unalias(v.t).Underlying().(type) {
	case *types.Slice:
		if v.isNil {
			return "nil"
		}
		if isByte(u.Elem()) {
			b := make([]byte, len(v.elems))
			for i, e := range v.elems {
				b[i] = byte(e.bits)
			}
			if printableBytes(b) {
				return r.typeString(v.t) + "(" + strconv.Quote(string(b)) + ")"
			}
			elems := make([]string, len(b))
			for i, c := range b {
				elems[i] = fmt.Sprintf("0x%02x", c)
			}
			return r.composite(v.t, elided, elems)
		}
		return r.composite(v.t, elided, r.elems(v.elems))
	case *types.Array:
		return r.composite(v.t, elided, r.elems(v.elems))
	case *types.Map:
		if v.isNil {
			return "nil"
		}
		parts := make([]string, len(v.entries))
		for i, e := range v.entries {
			parts[i] = r.lit(e.key, true) + ": " + r.lit(e.val, true)
		}
		return r.composite(v.t, elided, parts)
	case *types.Struct:
		var parts []string
		for _, f := range v.fields {
			if f.val.isZero() {
				continue
			}
			parts = append(parts, f.v.Name()+": "+r.lit(f.val, false))
		}
		return r.composite(v.t, elided, parts)
	}
	panic(fmt.Sprintf("emit: cannot render value of type %s", v.t)) // decode accepts no other types
}

// dynLit renders the dynamic value of an interface. An untyped constant
// there takes its default type (int, rune, float64, string, bool), so a
// literal whose default type is not the value's type is written as a
// conversion: int8(6), uint8('x'), float64(3), float32(1.5).
func (r *renderer) dynLit(v *value) string {
	text := r.lit(v, false)
	if v.kind == rt.KInvalid {
		return text
	}
	b, ok := types.Unalias(v.t).(*types.Basic)
	if !ok {
		return text // a named type: written as a conversion or a typed constant
	}
	if def, untyped := defaultKind(text); untyped && def != b.Kind() {
		return r.typeString(v.t) + "(" + text + ")"
	}
	return text
}

// defaultKind is the default type of the literal text if it is an
// untyped constant (a literal, possibly negated); untyped is false for
// other expressions (math.NaN(), conversions).
func defaultKind(text string) (kind types.BasicKind, untyped bool) {
	t := strings.TrimPrefix(text, "-")
	switch {
	case t == "":
		return 0, false
	case t == "true" || t == "false":
		return types.Bool, true
	case t[0] == '"' || t[0] == '`':
		return types.String, true
	case t[0] == '\'':
		return types.Int32, true
	case t[0] < '0' || t[0] > '9':
		return 0, false
	case strings.ContainsAny(t, "()"):
		return 0, false
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		return types.Int, true
	case strings.ContainsAny(t, ".eE"):
		return types.Float64, true
	}
	return types.Int, true
}

// pointer renders a pointer: nil, &T{...} (just {...} if elided) when the
// pointee is a composite literal, else a function literal that returns the
// address of a variable holding the pointee.
func (r *renderer) pointer(v *value, elided bool) string {
	if v.isNil {
		return "nil"
	}
	e := v.elem
	s := r.lit(e, false)
	if typ := r.typeString(e.t); strings.HasPrefix(s, typ+"{") {
		if elided {
			return r.lit(e, true)
		}
		return "&" + s
	}
	typ := r.typeString(e.t)
	return "func() *" + typ + " { var v " + typ + " = " + s + "; return &v }()"
}

// built renders a value made by calls as a function literal that makes
// it, called in place:
//
//	func() *Table {
//		built, err := New(4)
//		if err != nil {
//			panic(err)
//		}
//		built.Set(5, 6)
//		return built
//	}()
//
// Rows exist only for inputs whose constructor and calls succeeded when
// dowse ran them, so the panic reports a changed constructor.
func (r *renderer) built(v *value) string {
	b := v.built
	var s strings.Builder
	fmt.Fprintf(&s, "func() %s {\n", r.typeString(v.t))
	if b.ctor == nil { // the zero value
		if p, ok := types.Unalias(v.t).(*types.Pointer); ok {
			fmt.Fprintf(&s, "built := new(%s)\n", r.typeString(p.Elem()))
		} else {
			fmt.Fprintf(&s, "var built %s\n", r.typeString(v.t))
		}
		for _, c := range b.calls {
			fmt.Fprintf(&s, "built.%s(%s)\n", c.m.Name(), r.callArgs(c.m, c.args))
		}
		s.WriteString("return built\n}()")
		return s.String()
	}
	sig := b.ctor.Type().(*types.Signature)
	lhs := make([]string, sig.Results().Len())
	for i := range lhs {
		lhs[i] = "_"
	}
	lhs[0] = "built"
	if b.fn.Err {
		lhs[len(lhs)-1] = "err"
	}
	name := r.funcName(b.ctor)
	if recv := sig.Recv(); recv != nil {
		name = "(" + r.typeString(recv.Type()) + ")." + b.ctor.Name() // a method expression
	}
	fmt.Fprintf(&s, "%s := %s(%s)\n", strings.Join(lhs, ", "), name, r.callArgs(b.ctor, b.args))
	if b.fn.Err {
		s.WriteString("if err != nil {\npanic(err)\n}\n")
	}
	for _, c := range b.calls {
		fmt.Fprintf(&s, "built.%s(%s)\n", c.m.Name(), r.callArgs(c.m, c.args))
	}
	switch {
	case b.deref:
		s.WriteString("return *built\n}()")
	case b.addr:
		s.WriteString("return &built\n}()")
	default:
		s.WriteString("return built\n}()")
	}
	return s.String()
}

// channel renders a channel as a function literal called in place: a
// send-only one is empty with room for the length bound's values,
//
//	make(chan<- int, 3)
//
// and one the target receives from holds its elements and is closed:
//
//	func() <-chan int { ch := make(chan int, 2); ch <- 1; ch <- 5; close(ch); return ch }()
func (r *renderer) channel(v *value) string {
	c := types.Unalias(v.t).Underlying().(*types.Chan)
	if c.Dir() == types.SendOnly {
		return fmt.Sprintf("make(%s, %d)", r.typeString(v.t), v.maxLen)
	}
	both := r.typeString(types.NewChan(types.SendRecv, c.Elem()))
	var s strings.Builder
	fmt.Fprintf(&s, "func() %s { ch := make(%s, %d); ", r.typeString(v.t), both, len(v.elems))
	for _, e := range v.elems {
		fmt.Fprintf(&s, "ch <- %s; ", r.lit(e, false))
	}
	s.WriteString("close(ch); return ch }()")
	return s.String()
}

// stub renders a func value that returns scripted results, one set per
// call (the last one again after that), ignoring its arguments:
//
//	func() func(int) (int, error) {
//		results := []struct {
//			r0 int
//			r1 error
//		}{{3, nil}, {5, errors.New("x")}}
//		calls := 0
//		return func(int) (int, error) {
//			r := results[min(calls, len(results)-1)]
//			...
//		}
//	}()
func (r *renderer) stub(v *value) string {
	sig := types.Unalias(v.t).Underlying().(*types.Signature)
	lit := r.typeString(sig) // the literal's type: the signature, unnamed
	if len(v.writes) > 0 {
		lit = r.namedParams(sig) // the pointers it writes through need names
	}
	var s strings.Builder
	fmt.Fprintf(&s, "func() %s {\n", r.typeString(v.t))
	n := sig.Results().Len()
	if (n == 0 && len(v.writes) == 0) || len(v.calls) == 0 {
		fmt.Fprintf(&s, "return %s {\n", lit)
		for k := 0; k < n; k++ {
			fmt.Fprintf(&s, "var r%d %s\n", k, r.typeString(sig.Results().At(k).Type()))
		}
		s.WriteString("return" + results(n, "r%d") + "\n}\n}()")
		return s.String()
	}
	s.WriteString("results := []struct {\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&s, "r%d %s\n", k, r.typeString(sig.Results().At(k).Type()))
	}
	for _, w := range v.writes {
		fmt.Fprintf(&s, "w%d %s\n", w, r.typeString(sig.Params().At(w).Type().Underlying().(*types.Pointer).Elem()))
	}
	s.WriteString("}{\n")
	for _, call := range v.calls {
		parts := make([]string, len(call))
		for k, o := range call {
			parts[k] = r.lit(o, false)
		}
		fmt.Fprintf(&s, "{%s},\n", strings.Join(parts, ", "))
	}
	s.WriteString("}\ncalls := 0\n")
	fmt.Fprintf(&s, "return %s {\n", lit)
	s.WriteString("i := calls\nif i >= len(results) {\ni = len(results) - 1\n}\ncalls++\n")
	for _, w := range v.writes {
		fmt.Fprintf(&s, "if a%d != nil {\n*a%d = results[i].w%d\n}\n", w, w, w)
	}
	s.WriteString("return" + results(n, "results[i].r%d") + "\n}\n}()")
	return s.String()
}

// namedParams writes sig as a func literal's type whose parameters are
// named a0, a1, ... (blank when unused is not needed: Go allows unused
// parameters).
func (r *renderer) namedParams(sig *types.Signature) string {
	var params []string
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		ts := r.typeString(t)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			ts = "..." + r.typeString(t.(*types.Slice).Elem())
		}
		params = append(params, fmt.Sprintf("a%d %s", i, ts))
	}
	out := ""
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		out = " " + r.typeString(res.At(0).Type())
	default:
		var rs []string
		for i := 0; i < res.Len(); i++ {
			rs = append(rs, r.typeString(res.At(i).Type()))
		}
		out = " (" + strings.Join(rs, ", ") + ")"
	}
	return "func(" + strings.Join(params, ", ") + ")" + out
}

// results writes " x0, x1, ..." for n results named by format.
func results(n int, format string) string {
	parts := make([]string, n)
	for k := range parts {
		parts[k] = fmt.Sprintf(format, k)
	}
	if n == 0 {
		return ""
	}
	return " " + strings.Join(parts, ", ")
}

// funcName is fn's name as the generated file refers to it.
func (r *renderer) funcName(fn *types.Func) string {
	if fn.Pkg() == nil || fn.Pkg().Path() == r.self {
		return fn.Name()
	}
	return r.imports.qualifier(fn.Pkg()) + "." + fn.Name()
}

func (r *renderer) argList(args []*value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = r.lit(a, false)
	}
	return strings.Join(parts, ", ")
}

// callArgs renders the arguments of a call of fn: those of a variadic
// last parameter spread, one per element (none for an empty slice), so
// that a row reads as code calls the function: built.Add(5, "a").
func (r *renderer) callArgs(fn *types.Func, args []*value) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || !sig.Variadic() || len(args) == 0 {
		return r.argList(args)
	}
	parts := make([]string, 0, len(args))
	for _, a := range args[:len(args)-1] {
		parts = append(parts, r.lit(a, false))
	}
	for _, e := range args[len(args)-1].elems {
		parts = append(parts, r.lit(e, false))
	}
	return strings.Join(parts, ", ")
}

// pkg is the name under which the generated file imports the standard
// package path.
func (r *renderer) pkg(path string) string {
	return r.imports.add(path, path)
}

func (r *renderer) elems(vs []*value) []string {
	s := make([]string, len(vs))
	for i, e := range vs {
		s[i] = r.lit(e, true)
	}
	return s
}

// composite writes T{elems}, or {elems} if elided, breaking long lists
// over lines.
func (r *renderer) composite(t types.Type, elided bool, elems []string) string {
	typ := ""
	if !elided {
		typ = r.typeString(t)
	}
	one := typ + "{" + strings.Join(elems, ", ") + "}"
	if len(one) <= lineWidth && !strings.Contains(one, "\n") {
		return one
	}
	var b strings.Builder
	b.WriteString(typ + "{\n")
	line := 0
	for _, e := range elems {
		if line > 0 && (line+len(e)+2 > lineWidth-20 || strings.Contains(e, "\n")) {
			b.WriteString("\n")
			line = 0
		}
		if line > 0 {
			b.WriteString(" ")
			line++
		}
		b.WriteString(e + ",")
		line += len(e) + 1
		if strings.Contains(e, "\n") {
			b.WriteString("\n")
			line = 0
		}
	}
	if line > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}

// scalar renders a bool, integer or string: a constant of v's named type
// if exactly one has v's value, else a literal, converted to v's named
// type unless elided.
func (r *renderer) scalar(v *value, elided bool) string {
	if v.float {
		return r.floatLit(v, elided)
	}
	if name := r.constName(v); name != "" {
		return name
	}
	text := basicLit(v)
	if _, named := types.Unalias(v.t).(*types.Named); named && !elided {
		return r.typeString(v.t) + "(" + text + ")"
	}
	return text
}

// floatLit renders a float: the shortest decimal that reads back as the
// same value, or math.NaN(), math.Inf(±1) and math.Copysign(0, -1) for
// the values no literal has (the exact bits of a NaN do not matter to Go
// code that can only test it with math.IsNaN). A literal is converted to
// v's named type unless elided, as integers are; a call, whose value is a
// float64, to any other type.
func (r *renderer) floatLit(v *value, elided bool) string {
	f := v.floatValue()
	bits := 64
	if v.kind == rt.KUint32 {
		bits = 32
	}
	var text string
	switch {
	case math.IsNaN(f):
		text = r.pkg("math") + ".NaN()"
	case math.IsInf(f, 1):
		text = r.pkg("math") + ".Inf(1)"
	case math.IsInf(f, -1):
		text = r.pkg("math") + ".Inf(-1)"
	case f == 0 && math.Signbit(f):
		text = r.pkg("math") + ".Copysign(0, -1)"
	default:
		text = strconv.FormatFloat(f, 'g', -1, bits)
	}
	_, named := types.Unalias(v.t).(*types.Named)
	if call := strings.HasSuffix(text, ")"); call {
		// A float64 value, not an untyped constant: converted to any
		// other type, even where the literal's type is elided.
		if b, ok := types.Unalias(v.t).(*types.Basic); ok && b.Kind() == types.Float64 {
			return text
		}
		return r.typeString(v.t) + "(" + text + ")"
	}
	if named && !elided {
		return r.typeString(v.t) + "(" + text + ")"
	}
	return text
}

// basicLit renders a scalar as an untyped literal.
func basicLit(v *value) string {
	switch {
	case v.kind == rt.KBool:
		return strconv.FormatBool(v.bits != 0)
	case v.kind == rt.KString:
		return quoteString(v.str)
	}
	b, _ := types.Unalias(v.t).Underlying().(*types.Basic)
	if b != nil && b.Name() == "rune" {
		if r := rune(v.int64()); r >= 0 && utf8.ValidRune(r) && unicode.IsPrint(r) {
			return strconv.QuoteRune(r)
		}
	}
	if b != nil && b.Name() == "byte" {
		if v.bits >= 0x20 && v.bits < 0x7f {
			return strconv.QuoteRune(rune(v.bits))
		}
		return fmt.Sprintf("0x%02x", v.bits)
	}
	if v.signed() {
		return strconv.FormatInt(v.int64(), 10)
	}
	return formatUint(v.bits)
}

// formatUint writes u in decimal, or in hex if it is large and its hex
// digits are mostly 0 and f (masks, limits, sign bits).
func formatUint(u uint64) string {
	if u >= 0x10000 {
		h := strconv.FormatUint(u, 16)
		round := strings.Count(h, "0") + strings.Count(h, "f")
		if round*4 >= len(h)*3 {
			return "0x" + h
		}
	}
	return strconv.FormatUint(u, 10)
}

// quoteString writes s as an interpreted string literal, or as a raw one
// if s has quotes or backslashes and nothing a raw literal cannot show.
func quoteString(s string) string {
	if strings.ContainsAny(s, "\"\\") && !strings.Contains(s, "`") && utf8.ValidString(s) {
		raw := true
		for _, c := range s {
			if !unicode.IsPrint(c) {
				raw = false
				break
			}
		}
		if raw {
			return "`" + s + "`"
		}
	}
	return strconv.Quote(s)
}

// printableBytes reports whether b reads well as a quoted string.
func printableBytes(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range string(b) {
		if !unicode.IsPrint(c) && c != '\n' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// isByte reports whether t is byte or uint8, not a named type.
func isByte(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Kind() == types.Uint8
}

// constName returns the (qualified) name of the only constant of v's named
// type that has v's value and is accessible, or "".
func (r *renderer) constName(v *value) string {
	n, ok := types.Unalias(v.t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	obj := n.Obj()
	consts, ok := r.consts[obj]
	if !ok {
		scope := obj.Pkg().Scope()
		for _, name := range scope.Names() {
			c, ok := scope.Lookup(name).(*types.Const)
			if ok && types.Identical(c.Type(), n) && (c.Exported() || c.Pkg().Path() == r.self) {
				consts = append(consts, c)
			}
		}
		r.consts[obj] = consts
	}
	var ours constant.Value
	switch {
	case v.kind == rt.KBool:
		ours = constant.MakeBool(v.bits != 0)
	case v.kind == rt.KString:
		ours = constant.MakeString(v.str)
	case v.signed():
		ours = constant.MakeInt64(v.int64())
	default:
		ours = constant.MakeUint64(v.bits)
	}
	found := ""
	for _, c := range consts {
		cv := c.Val()
		if cv.Kind() == constant.Float {
			cv = constant.ToInt(cv)
		}
		if cv.Kind() != ours.Kind() || !constant.Compare(cv, token.EQL, ours) {
			continue
		}
		if found != "" {
			return "" // ambiguous
		}
		found = c.Name()
	}
	if found == "" || obj.Pkg().Path() == r.self {
		return found
	}
	return r.imports.qualifier(obj.Pkg()) + "." + found
}
