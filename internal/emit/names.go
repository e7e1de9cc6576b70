package emit

import (
	"fmt"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"github.com/dowse-go/dowse/rt"
)

// Test case names are built from the inputs, "a=1,b=-2,xs=1_2_3", cut to a
// maximum length and made unique with a "#2", "#3", ... suffix. They use
// only characters that t.Run keeps as they are and that need no quoting in
// a -run pattern, so "go test -run 'Test/^name$'" selects exactly one case.

// nameMaxString is the most characters of a string input shown in a name.
const nameMaxString = 12

// caseName describes one row by its inputs.
func (r *renderer) caseName(fields []string, vals []*value, max int) string {
	if len(vals) == 0 {
		return "run"
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fields[i] + "=" + r.nameFrag(v)
	}
	name := strings.Join(parts, ",")
	if len(name) > max {
		name = name[:max-2] + ".."
	}
	return name
}

// nameFrag describes one value compactly.
func (r *renderer) nameFrag(v *value) string {
	if v.kind != rt.KInvalid {
		if c := r.constName(v); c != "" {
			return sanitize(c[strings.LastIndex(c, ".")+1:])
		}
		switch {
		case v.float:
			return sanitize(strconv.FormatFloat(v.floatValue(), 'g', 6, 64))
		case v.kind == rt.KBool:
			return strconv.FormatBool(v.bits != 0)
		case v.kind == rt.KString:
			return stringFrag(v.str)
		case v.signed():
			n := v.int64()
			if b, ok := types.Unalias(v.t).Underlying().(*types.Basic); ok && b.Name() == "rune" && n >= 0 && n <= unicode.MaxRune {
				if r := rune(n); unicode.IsLetter(r) || unicode.IsDigit(r) {
					return string(r)
				}
			}
			return strconv.FormatInt(n, 10)
		}
		return formatUint(v.bits)
	}
	switch v.shape {
	case rt.ShapePointer:
		if v.isNil {
			return "nil"
		}
		return r.nameFrag(v.elem)
	case rt.ShapeError:
		if v.isNil {
			return "nil"
		}
		return "err_" + stringFrag(v.str)
	case rt.ShapeContext:
		return "ctx"
	case rt.ShapeWriter:
		return "buf"
	case rt.ShapeReader:
		// As a []byte: the bytes it yields.
		if printableBytes([]byte(v.str)) {
			return stringFrag(v.str)
		}
		return fmt.Sprintf("0x%x", v.str)
	case rt.ShapeChan:
		parts := []string{"chan"}
		for _, e := range v.elems {
			parts = append(parts, r.nameFrag(e))
		}
		return strings.Join(parts, "_")
	case rt.ShapeFunc:
		if v.isNil {
			return "nil"
		}
		return "stub"
	case rt.ShapeAny:
		if v.isNil {
			return "nil"
		}
		return r.nameFrag(v.dyn)
	case rt.ShapeIface:
		// The dynamic type: a mock's name without its prefix, the type
		// of a typed nil, or the value's own name.
		switch d := v.dyn; {
		case v.isNil:
			return "nil"
		case d.mock != nil:
			return strings.TrimPrefix(d.mock.Name, "dowse")
		case d.shape == rt.ShapeTypeOf, d.shape == rt.ShapePointer && d.isNil:
			return typeFrag(types.TypeString(d.t, func(*types.Package) string { return "" }))
		}
		return r.nameFrag(v.dyn)
	case rt.ShapeVar:
		if v.wrap {
			return "wrapped_" + v.vr.Name()
		}
		return v.vr.Name()
	case rt.ShapeBuilt:
		b := v.built
		parts := []string{"zero"}
		if b.ctor != nil {
			parts[0] = b.ctor.Name()
		}
		for _, a := range b.args {
			parts = append(parts, r.nameFrag(a))
		}
		s := strings.Join(parts, "_")
		for _, c := range b.calls {
			parts = []string{c.m.Name()}
			for _, a := range c.args {
				parts = append(parts, r.nameFrag(a))
			}
			s += "." + strings.Join(parts, "_")
		}
		return s
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
				return stringFrag(string(b))
			}
			return fmt.Sprintf("0x%x", b)
		}
	case *types.Struct:
		parts := make([]string, len(v.fields))
		for i, f := range v.fields {
			parts[i] = r.nameFrag(f.val)
		}
		return strings.Join(parts, "_")
	case *types.Map:
		if v.isNil {
			return "nil"
		}
		parts := make([]string, len(v.entries))
		for i, e := range v.entries {
			parts[i] = r.nameFrag(e.key) + "_" + r.nameFrag(e.val)
		}
		return "map_" + strings.Join(parts, "_")
	}
	parts := make([]string, len(v.elems))
	for i, e := range v.elems {
		parts[i] = r.nameFrag(e)
	}
	return strings.Join(parts, "_")
}

// stringFrag shows a string's beginning in quotes, other characters than
// letters, digits and a few punctuation marks replaced by '_'.
func stringFrag(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	n := 0
	for _, c := range s {
		if n == nameMaxString {
			b.WriteString("..")
			break
		}
		if safeNameRune(c) && c != '"' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
		n++
	}
	b.WriteByte('"')
	return b.String()
}

// safeNameRune reports whether c may appear in a case name.
func safeNameRune(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || strings.ContainsRune(`_-.,:=#"`, c)
}

func sanitize(s string) string {
	return strings.Map(func(c rune) rune {
		if safeNameRune(c) {
			return c
		}
		return '_'
	}, s)
}

// uniqueNames makes names unique in order, appending "#2", "#3", ...
type uniqueNames map[string]bool

func (u uniqueNames) make(name string) string {
	name = sanitize(name)
	n := name
	for i := 2; u[n]; i++ {
		n = name + "#" + strconv.Itoa(i)
	}
	u[n] = true
	return n
}

// typeFrag is a type written for a test name: "*Dest" as "ptrDest".
func typeFrag(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "*", "ptr"), ".", "_")
}
