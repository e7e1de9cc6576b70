package emit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The names of generated test functions (TestDowsePutXxx, its failures
// table, FuzzDowseXxxFailures) must not collide with anything declared in
// the package: a hand-written TestDowsePutXxx in any file of the
// directory, test files of either test package included, would make the
// generated file redeclare it. A name that is taken gets the first free
// numeric suffix (TestDowsePutXxx2, TestDowsePutXxx3, ...), skipping the
// names dowse gives other targets of the package, so the choice depends
// only on the package's source.

// declaredNames returns the package-level names declared in the Go files
// of dir other than dowse's generated files (which dowse rewrites):
// functions, types, variables and constants, of the package and of its
// test packages alike. Files that do not parse are left out (they belong
// to no build the package's tests use).
func declaredNames(dir string) (map[string]bool, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		if isGenerated(src) {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), n, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						out[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							out[id.Name] = true
						}
					}
				}
			}
		}
	}
	return out, nil
}

// A namer picks the names of generated test functions.
type namer struct {
	taken map[string]bool // declared by the package's own files
	scope *types.Scope    // the package's scope: which targets exist
}

// free returns base if nothing in the package declares it, else base
// with the first numeric suffix that is neither declared nor the name
// dowse gives another target.
func (n namer) free(base string) string {
	if !n.taken[base] {
		return base
	}
	for i := 2; ; i++ {
		c := base + strconv.Itoa(i)
		if !n.taken[c] && !n.reserved(c) {
			return c
		}
	}
}

// reserved reports whether name is the unsuffixed name of a generated
// function of some target of the package: TestDowse<T>,
// TestDowse<T>Failures, TestDowseFailures<T>, FuzzDowse<F>Failures, with
// <T> a function of the scope or <Type>_<Method>, optionally after
// "Isolated".
func (n namer) reserved(name string) bool {
	var rest []string
	if s, ok := strings.CutPrefix(name, "TestDowseFailures"); ok {
		rest = append(rest, s)
	}
	if s, ok := strings.CutPrefix(name, "TestDowse"); ok {
		rest = append(rest, s)
		if s, ok := strings.CutSuffix(s, "Failures"); ok {
			rest = append(rest, s)
		}
	}
	if s, ok := strings.CutPrefix(name, "FuzzDowse"); ok {
		if s, ok := strings.CutSuffix(s, "Failures"); ok {
			rest = append(rest, "Fuzz"+s)
		}
	}
	for _, r := range rest {
		if n.target(r) || n.target(strings.TrimPrefix(r, "Isolated")) {
			return true
		}
	}
	return false
}

// target reports whether ident names a possible target of the package: a
// function, or a method written Type_Method.
func (n namer) target(ident string) bool {
	if ident == "" || n.scope == nil {
		return false
	}
	if _, ok := n.scope.Lookup(ident).(*types.Func); ok {
		return true
	}
	typ, method, ok := strings.Cut(ident, "_")
	if !ok {
		return false
	}
	tn, ok := n.scope.Lookup(typ).(*types.TypeName)
	if !ok {
		// An unexported type's name, capitalized by TestIdent.
		r, size := utf8.DecodeRuneInString(typ)
		if tn, ok = n.scope.Lookup(string(unicode.ToLower(r)) + typ[size:]).(*types.TypeName); !ok {
			return false
		}
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, tn.Pkg(), method)
	_, isFunc := obj.(*types.Func)
	return isFunc
}

// ofTarget reports whether the function name is one of the generated
// functions of the target whose identifier is ident: one of bases, or
// one of them with a numeric suffix that is not the name of another
// target's function, and not declared by the package's own files.
func (n namer) ofTarget(name string, bases []string) bool {
	if n.taken[name] {
		return false
	}
	for _, b := range bases {
		s, ok := strings.CutPrefix(name, b)
		if !ok {
			continue
		}
		if s == "" {
			return true
		}
		if k, err := strconv.Atoi(s); err == nil && k >= 2 && strconv.Itoa(k) == s && !n.reserved(name) {
			return true
		}
	}
	return false
}

// baseNames are the unsuffixed names of the functions generated for the
// target name (a method is Type.Method), in an ordinary or an isolated
// file.
func baseNames(name string) []string {
	ident := TestIdent(name)
	return []string{"TestDowse" + ident, "TestDowse" + ident + "Failures", "TestDowseFailures" + ident, "FuzzDowse" + strings.TrimPrefix(ident, "Fuzz") + "Failures",
		"TestDowseIsolated" + ident, "TestDowseIsolated" + ident + "Failures"}
}

// TestIdent is the part of the generated tests' names that names the
// target: Type.Method becomes Type_Method, and a method of an unexported
// type (lexer.Next) starts with a capital letter, as a test's name must
// after Test (Lexer_Next).
func TestIdent(target string) string {
	ident := strings.ReplaceAll(target, ".", "_")
	if r, size := utf8.DecodeRuneInString(ident); unicode.IsLower(r) {
		ident = string(unicode.ToUpper(r)) + ident[size:]
	}
	return ident
}
