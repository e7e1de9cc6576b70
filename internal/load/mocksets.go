package load

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/dowse-go/dowse/internal/mock"
	"golang.org/x/tools/go/packages"
)

// mocksFor returns the mock types offered for values of interface type t.
func (f *ifaceFacts) mocksFor(t types.Type, it *types.Interface) []*mock.Type {
	others := f.assertedFrom(t)
	if f.unwrap && isNamed(t, "", "error") {
		others = append(others, wrapper)
	}
	return f.methodSetMocks(t, others)
}

// methodSetMocks are the mock types of t's method set united with each
// subset of others.
func (f *ifaceFacts) methodSetMocks(t types.Type, others []types.Type) []*mock.Type {
	// Method sets: t's, with the union of every subset of the others
	// (smaller subsets first), without clashes, each once.
	var subsets []int
	for mask := 0; mask < 1<<len(others); mask++ {
		subsets = append(subsets, mask)
	}
	sort.SliceStable(subsets, func(i, j int) bool { return bitCount(subsets[i]) < bitCount(subsets[j]) })
	var out []*mock.Type
	seen := map[string]bool{}
	sets := 0
	for _, mask := range subsets {
		if sets == maxMethodSets {
			break
		}
		ifaces := []types.Type{t}
		for k, o := range others {
			if mask&(1<<k) != 0 {
				ifaces = append(ifaces, o)
			}
		}
		methods, ok := unionMethods(ifaces)
		if !ok {
			continue // two methods of one name with different signatures
		}
		key := methodSetKey(methods)
		if seen[key] {
			continue
		}
		seen[key] = true
		sets++
		impl := implemented(append([]types.Type{t}, others...), methods)
		out = append(out, f.variants(impl, methods)...)
	}
	return out
}

// variants are the mock types of one method set: the forms and tags the
// package's reflection can tell apart.
func (f *ifaceFacts) variants(impl []types.Type, methods []*types.Func) []*mock.Type {
	var base strings.Builder
	var names []string
	for _, t := range impl {
		n := "Mock"
		if named, ok := types.Unalias(t).(*types.Named); ok {
			n = named.Obj().Name()
		} else if it, ok := t.Underlying().(*types.Interface); ok && it.NumMethods() > 0 {
			// interface{ Unwrap() error }: named after its methods.
			n = ""
			for i := 0; i < it.NumMethods(); i++ {
				n += upperFirst(it.Method(i).Name())
			}
		}
		names = append(names, n)
		base.WriteString(upperFirst(n))
	}
	ptrs := []bool{true}
	if f.kinds || f.values {
		ptrs = append(ptrs, false)
	}
	type variant struct {
		form mock.Form
		tag  string
		sfx  string
	}
	vs := []variant{{form: mock.Struct}}
	for _, tv := range f.tags {
		vs = append(vs, variant{form: mock.Struct, tag: tv.key + ":" + strconv.Quote(tv.value), sfx: upperFirst(identPart(tv.key)) + upperFirst(identPart(tv.value))})
	}
	if f.numField {
		vs = append(vs, variant{form: mock.Empty, sfx: "Empty"})
	}
	if f.kinds {
		vs = append(vs, variant{form: mock.NonStruct, sfx: "Int"})
	}
	var out []*mock.Type
	for _, v := range vs {
		for _, ptr := range ptrs {
			sfx := v.sfx
			if !ptr {
				sfx += "Value"
			}
			key := methodSetKey(methods) + "|" + v.tag + "|" + strconv.Itoa(int(v.form)) + "|" + strconv.FormatBool(ptr)
			if m, ok := f.decls.made[key]; ok {
				out = append(out, m)
				continue
			}
			m := f.decls.names.New(f.pkg, "dowse"+base.String()+sfx, names, methods, ptr, v.form, v.tag)
			f.decls.made[key] = m
			out = append(out, m)
		}
	}
	return out
}

// declaredIn returns the function reporting the names that the mock
// types of variant p may not take: those its files (other than the
// generated ones, which are rewritten or left out) declare at package
// level or import into a file (a package-level declaration may not share
// a name with a file's import), and those declared at package level by
// any Go file of its directory, whatever its package clause and build
// constraints: the generated tests are kept with the package, and must
// compile in every build of it.
func declaredIn(p *packages.Package, fset *token.FileSet, generated map[string]bool) func(string) bool {
	names := map[string]bool{}
	for _, file := range p.Syntax {
		if generated[fset.File(file.Pos()).Name()] {
			continue
		}
		for _, d := range file.Decls {
			declNames(d, names)
		}
		for _, im := range file.Imports {
			switch {
			case im.Name != nil:
				names[im.Name.Name] = true
			case p.TypesInfo != nil && p.TypesInfo.Implicits[im] != nil:
				names[p.TypesInfo.Implicits[im].Name()] = true
			}
		}
	}
	if dir := packageDir(p); dir != "" {
		paths, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				continue
			}
			file, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil || WrittenByDowse(file) {
				continue
			}
			for _, d := range file.Decls {
				declNames(d, names)
			}
		}
	}
	return func(name string) bool { return names[name] }
}

// declNames adds the package-level names d declares to names.
func declNames(d ast.Decl, names map[string]bool) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			names[d.Name.Name] = true
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				names[sp.Name.Name] = true
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					names[id.Name] = true
				}
			}
		}
	}
}

// unionMethods is the method set of the interfaces, sorted by name; ok is
// false if two methods of one name differ in signature.
func unionMethods(ifaces []types.Type) ([]*types.Func, bool) {
	byName := map[string]*types.Func{}
	for _, t := range ifaces {
		it := t.Underlying().(*types.Interface)
		for i := 0; i < it.NumMethods(); i++ {
			m := it.Method(i)
			if prev, ok := byName[m.Name()]; ok {
				if !types.Identical(prev.Type(), m.Type()) {
					return nil, false
				}
				continue
			}
			byName[m.Name()] = m
		}
	}
	var out []*types.Func
	for _, m := range byName {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, true
}

// implemented are the interfaces among ifaces that methods implement,
// leaving out those another one of the list implies.
func implemented(ifaces []types.Type, methods []*types.Func) []types.Type {
	has := map[string]*types.Func{}
	for _, m := range methods {
		has[m.Name()] = m
	}
	var in []types.Type
	for _, t := range ifaces {
		it := t.Underlying().(*types.Interface)
		all := true
		for i := 0; i < it.NumMethods(); i++ {
			m := has[it.Method(i).Name()]
			all = all && m != nil && types.Identical(m.Type(), it.Method(i).Type())
		}
		if all && !slices.ContainsFunc(in, func(o types.Type) bool { return types.Identical(o, t) }) {
			in = append(in, t)
		}
	}
	var out []types.Type
	for _, t := range in {
		implied := false
		for _, o := range in {
			if o != t && types.Implements(o, t.Underlying().(*types.Interface)) && !types.Implements(t, o.Underlying().(*types.Interface)) {
				implied = true
			}
		}
		if !implied {
			out = append(out, t)
		}
	}
	return out
}

func methodSetKey(methods []*types.Func) string {
	var b strings.Builder
	for _, m := range methods {
		b.WriteString(m.Name() + types.TypeString(m.Type(), nil) + ";")
	}
	return b.String()
}

func bitCount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// identPart keeps the letters and digits of s.
func identPart(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}
