package detect

import (
	"bytes"
	"go/ast"
	"go/types"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// summary computes the statistics of one package from its sites and the
// solved analysis.
func (s *session) summary(u *syntaxUnit, sites []*Site) *Summary {
	sum := &Summary{Package: u.path, Focal: map[string][]string{}}
	testDecls := map[string]bool{}
	for _, f := range u.files {
		tf := s.fset.File(f.FileStart)
		if !isTestFile(tf.Name()) {
			continue
		}
		sum.TestFiles++
		sum.TestLOC += CountLOC(tf.Name())
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !isTestRelated(fd) {
				continue
			}
			obj, ok := u.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			testDecls[declLabel(fd)] = true
			sum.Tests++
			mocks, slices, maps := s.holdings(s.funcsOf(obj))
			if mocks {
				sum.TestsWithMocks++
			}
			if slices {
				sum.TestsWithMockSlices++
			}
			if maps {
				sum.TestsWithMockMaps++
			}
		}
	}
	for _, c := range s.eng.creations {
		fn := c.Parent()
		if fn == nil || !s.inTestFileOf(u, fn) {
			continue
		}
		// A helper of the test files that returns a mock is not a
		// creation site: the creation inside it is.
		if call, ok := c.(ssa.CallInstruction); ok {
			if callee := call.Common().StaticCallee(); callee != nil && isTestFile(s.fset.Position(callee.Pos()).Filename) {
				continue
			}
		}
		sum.MockObjects++
	}
	sum.FieldMocks = s.fieldOrigins(u)
	focal := map[string]map[string]bool{}
	for _, site := range sites {
		sum.Sites++
		if site.Reason != "" {
			sum.Unresolved++
		}
		if !site.Method {
			continue
		}
		sum.MethodCalls++
		if site.Mock {
			sum.MockInvocations++
			continue
		}
		sum.RealInvocations++
		if testDecls[site.Test] && s.production(u, site.callee) {
			if focal[site.Test] == nil {
				focal[site.Test] = map[string]bool{}
			}
			focal[site.Test][site.Callee] = true
		}
	}
	for test, set := range focal {
		for callee := range set {
			sum.Focal[test] = append(sum.Focal[test], callee)
		}
		sort.Strings(sum.Focal[test])
	}
	return sum
}

// holdings reports whether the functions hold a value that may be a mock,
// a slice or array that may hold mocks, a map or channel that may.
func (s *session) holdings(fns []*ssa.Function) (mocks, slices, maps bool) {
	check := func(v ssa.Value) {
		if v == nil {
			return
		}
		if !mocks && s.eng.mayMock(v) {
			mocks = true
		}
		t := v.Type().Underlying()
		if p, ok := t.(*types.Pointer); ok {
			if _, ok := p.Elem().Underlying().(*types.Array); !ok {
				return
			}
			t = p.Elem().Underlying()
		}
		switch t := t.(type) {
		case *types.Slice:
			slices = slices || s.eng.isMockType(t.Elem()) || s.eng.holdsMocks(v)
		case *types.Array:
			slices = slices || s.eng.isMockType(t.Elem()) || s.eng.holdsMocks(v)
		case *types.Map:
			maps = maps || s.eng.isMockType(t.Elem()) || s.eng.holdsMocks(v)
		case *types.Chan:
			maps = maps || s.eng.isMockType(t.Elem()) || s.eng.holdsMocks(v)
		}
	}
	for _, fn := range fns {
		for _, p := range fn.Params {
			check(p)
		}
		for _, fv := range fn.FreeVars {
			check(fv)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if v, ok := instr.(ssa.Value); ok {
					check(v)
				}
				if st, ok := instr.(*ssa.Store); ok {
					check(st.Val)
				}
			}
		}
	}
	return mocks, slices, maps
}

// fieldOrigins counts the fields of u's test code that hold mocks.
func (s *session) fieldOrigins(u *syntaxUnit) FieldOrigins {
	var fo FieldOrigins
	for id, obj := range u.info.Defs {
		v, ok := obj.(*types.Var)
		if !ok || !v.IsField() || v.Embedded() || !isTestFile(s.fset.Position(id.Pos()).Filename) {
			continue
		}
		if s.eng.isMockType(v.Type()) {
			fo.Type++
		}
	}
	for field, stores := range s.eng.fieldStores {
		var ctor, setup, other bool
		for _, st := range stores {
			if st.fn == nil || !s.inTestFileOf(u, st.fn) {
				continue
			}
			top := st.fn
			for top.Parent() != nil {
				top = top.Parent()
			}
			switch {
			case setupMethods[top.Name()] || top.Name() == "TestMain":
				setup = true
			case returnsOwner(top, st.owner):
				ctor = true
			default:
				other = true
			}
		}
		_ = field
		if ctor {
			fo.Constructor++
		}
		if setup {
			fo.Setup++
		}
		if other {
			fo.Other++
		}
	}
	return fo
}

// returnsOwner reports whether fn is a fixture constructor for the struct
// type owner: a function (not a test) one of whose results is owner or a
// pointer to it.
func returnsOwner(fn *ssa.Function, owner types.Type) bool {
	if owner == nil || strings.HasPrefix(fn.Name(), "Test") {
		return false
	}
	base := deref(owner)
	res := fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if types.Identical(deref(res.At(i).Type()), base) {
			return true
		}
	}
	return false
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// inTestFileOf reports whether fn is declared in a test file of u.
func (s *session) inTestFileOf(u *syntaxUnit, fn *ssa.Function) bool {
	pos := fn.Pos()
	for fn.Parent() != nil && !pos.IsValid() {
		fn = fn.Parent()
		pos = fn.Pos()
	}
	if !pos.IsValid() {
		return false
	}
	name := s.fset.Position(pos).Filename
	if !isTestFile(name) {
		return false
	}
	for _, f := range u.files {
		if s.fset.File(f.FileStart).Name() == name {
			return true
		}
	}
	return false
}

// production reports whether fn is production code of u's module: in the
// module, not in a test file or a generated mock file, not a mock method.
func (s *session) production(u *syntaxUnit, fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	if u.modPath != "" {
		if path != u.modPath && !strings.HasPrefix(path, u.modPath+"/") {
			return false
		}
	} else if first(path) != first(u.path) {
		// Outside modules (GOPATH mode), the module is approximated by
		// the first element of the import path.
		return false
	}
	if isTestFile(s.fset.Position(fn.Pos()).Filename) || s.cls.GeneratedMockFile(fn.Pos()) != "" {
		return false
	}
	if recv := fn.Signature().Recv(); recv != nil {
		if s.eng.isMockType(recv.Type()) || s.besideMocks(recv.Type()) {
			return false
		}
	}
	return true
}

// besideMocks reports whether the named type t (or *t) is declared in a
// file that declares mock types: such types are the mocks' recorders,
// expecters and call records, not production code.
func (s *session) besideMocks(t types.Type) bool {
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	file := s.fset.Position(n.Obj().Pos()).Filename
	if file == "" {
		return false
	}
	if v, ok := s.mockFiles[file]; ok {
		return v
	}
	found := false
	scope := n.Obj().Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if ok && s.fset.Position(tn.Pos()).Filename == file && s.eng.isMockType(tn.Type()) {
			found = true
			break
		}
	}
	s.mockFiles[file] = found
	return found
}

// CountLOC counts the non-blank lines of a file (0 if it cannot be read).
func CountLOC(name string) int {
	data, err := os.ReadFile(name)
	if err != nil {
		return 0
	}
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 {
			n++
		}
	}
	return n
}

// Add accumulates the counts of s into t (Package and Focal excepted).
func (t *Summary) Add(s *Summary) {
	t.TestFiles += s.TestFiles
	t.TestLOC += s.TestLOC
	t.Tests += s.Tests
	t.TestsWithMocks += s.TestsWithMocks
	t.TestsWithMockSlices += s.TestsWithMockSlices
	t.TestsWithMockMaps += s.TestsWithMockMaps
	t.MockObjects += s.MockObjects
	t.FieldMocks.Type += s.FieldMocks.Type
	t.FieldMocks.Constructor += s.FieldMocks.Constructor
	t.FieldMocks.Setup += s.FieldMocks.Setup
	t.FieldMocks.Other += s.FieldMocks.Other
	t.Sites += s.Sites
	t.MethodCalls += s.MethodCalls
	t.MockInvocations += s.MockInvocations
	t.RealInvocations += s.RealInvocations
	t.Unresolved += s.Unresolved
}

func first(path string) string {
	head, _, _ := strings.Cut(path, "/")
	return head
}
