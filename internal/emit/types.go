package emit

import (
	"fmt"
	"go/types"
	"path"
	"sort"
	"strconv"

	"github.com/dowse-go/dowse/rt"
)

// checkTypes checks that every type reachable from the parameters can be
// written, and values of it built, in the package with path self. It adds
// the packages whose names the literals need to pkgs.
func checkTypes(params []*types.Var, self string, pkgs map[string]*types.Package) error {
	c := &typeChecker{self: self, pkgs: pkgs, seen: map[types.Type]bool{}}
	for i, p := range params {
		if err := c.walk(p.Type()); err != nil {
			return fmt.Errorf("%s: %w", paramLabel(p, i), err)
		}
	}
	return nil
}

// checkParams is checkTypes for t's parameters, except that of a value
// built by calls (rt.ShapeBuilt) only the type's name must be writable:
// its fields are never written.
func checkParams(t *Target, self string, pkgs map[string]*types.Package) error {
	c := &typeChecker{self: self, pkgs: pkgs, seen: map[types.Type]bool{}}
	for i, p := range t.Params {
		typ := types.Unalias(p.Type())
		if t.Layout != nil && i < len(t.Layout.Params) && t.Layout.Shapes[t.Layout.Params[i].Shape].Kind == rt.ShapeBuilt {
			if ptr, ok := typ.(*types.Pointer); ok {
				typ = types.Unalias(ptr.Elem())
			}
			if n, ok := typ.(*types.Named); ok {
				if err := c.accessible(n.Obj()); err != nil {
					return fmt.Errorf("%s: %w", paramLabel(p, i), err)
				}
				continue
			}
		}
		if err := c.walk(p.Type()); err != nil {
			return fmt.Errorf("%s: %w", paramLabel(p, i), err)
		}
	}
	return nil
}

type typeChecker struct {
	self   string
	pkgs   map[string]*types.Package
	seen   map[types.Type]bool
	opaque int // inside a stub's results (see structure)
}

func (c *typeChecker) accessible(obj types.Object) error {
	if obj.Pkg() == nil {
		return nil // predeclared
	}
	if obj.Pkg().Path() != c.self && !obj.Exported() {
		return fmt.Errorf("type %s is not exported from %s", obj.Name(), obj.Pkg().Path())
	}
	if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
		return fmt.Errorf("type %s is declared inside a function", obj.Name())
	}
	if obj.Pkg().Path() != c.self {
		if obj.Pkg().Name() == "main" {
			return fmt.Errorf("type %s belongs to command %s, which cannot be imported", obj.Name(), obj.Pkg().Path())
		}
		c.pkgs[obj.Pkg().Path()] = obj.Pkg()
	}
	return nil
}

func (c *typeChecker) walk(t types.Type) error {
	if c.seen[t] {
		return nil
	}
	c.seen[t] = true
	switch t := t.(type) {
	case *types.Alias:
		if err := c.accessible(t.Obj()); err != nil {
			return err
		}
		if err := c.typeArgs(t.TypeArgs()); err != nil {
			return err
		}
		return c.structure(types.Unalias(t))
	case *types.Named:
		if err := c.accessible(t.Obj()); err != nil {
			return err
		}
		if err := c.typeArgs(t.TypeArgs()); err != nil {
			return err
		}
		return c.structure(t)
	}
	return c.structure(t)
}

func (c *typeChecker) typeArgs(l *types.TypeList) error {
	for i := 0; i < l.Len(); i++ {
		if err := c.walk(l.At(i)); err != nil {
			return err
		}
	}
	return nil
}

// structure checks the parts of a type that values are built from.
func (c *typeChecker) structure(t types.Type) error {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&(types.IsBoolean|types.IsInteger|types.IsFloat|types.IsString) == 0 || u.Info()&types.IsUntyped != 0 {
			return fmt.Errorf("unsupported input type %s", u)
		}
		return nil
	case *types.Array:
		return c.walk(u.Elem())
	case *types.Slice:
		return c.walk(u.Elem())
	case *types.Map:
		if err := c.walk(u.Key()); err != nil {
			return err
		}
		return c.walk(u.Elem())
	case *types.Pointer:
		return c.walk(u.Elem())
	case *types.Chan:
		return c.walk(u.Elem())
	case *types.Signature:
		// A stub: its results are values; its parameters are only written.
		// A struct of another package with unexported fields among the
		// results is its zero value (an isolated call's uninitialized
		// object, docs/isolate.md), which any package can write: T{}.
		c.opaque++
		for i := 0; i < u.Results().Len(); i++ {
			if err := c.walk(u.Results().At(i).Type()); err != nil {
				c.opaque--
				return err
			}
		}
		c.opaque--
		for i := 0; i < u.Params().Len(); i++ {
			if err := c.writable(u.Params().At(i).Type(), map[types.Type]bool{}); err != nil {
				return err
			}
		}
		return nil
	case *types.Interface:
		// The interfaces whose values dowse builds with a constructor of
		// the standard library (see rt.Layout).
		switch {
		case namedAs(t, "", "error"):
			return nil // errors is imported when a row writes errors.New
		case namedAs(t, "context", "Context"):
			c.pkgs["context"] = types.NewPackage("context", "context")
			return nil
		case namedAs(t, "io", "Writer"):
			c.pkgs["bytes"] = types.NewPackage("bytes", "bytes")
			return nil
		case namedAs(t, "io", "Reader"):
			c.pkgs["strings"] = types.NewPackage("strings", "strings")
			return nil
		case u.Empty():
			return nil // any: nil or a constant
		default:
			// Nil, a value of the package's types or of a mock type
			// the file declares (docs/mocks.md); what these name is
			// imported as it is written.
			return nil
		}
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if f.Name() == "_" {
				continue
			}
			if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != c.self {
				if c.opaque > 0 {
					return nil
				}
				return fmt.Errorf("struct type %s has unexported field %s, which package %s cannot set", t, f.Name(), c.self)
			}
			if err := c.walk(f.Type()); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unsupported input type %s", t)
}

// importSet names the packages a generated file imports.
type importSet struct {
	self  string
	names map[string]string // import path → name used in the file
	alias map[string]bool   // the name differs from the package's own name or the path's last element
	taken map[string]bool
}

// newImportSet returns an empty import set for the package with path
// self, in which the names in reserved are taken.
func newImportSet(self string, reserved []string) *importSet {
	s := &importSet{self: self, names: map[string]string{}, alias: map[string]bool{}, taken: map[string]bool{}}
	for _, r := range reserved {
		s.taken[r] = true
	}
	return s
}

// addAll names the packages in pkgs in order of their paths: each gets its
// own name unless that is taken, then the first free one of name2, name3,
// and so on.
func (s *importSet) addAll(pkgs map[string]*types.Package) {
	paths := make([]string, 0, len(pkgs))
	for p := range pkgs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		s.add(p, pkgs[p].Name())
	}
}

func (s *importSet) add(importPath, name string) string {
	if n, ok := s.names[importPath]; ok {
		return n
	}
	n := name
	for i := 2; s.taken[n]; i++ {
		n = name + strconv.Itoa(i)
	}
	s.taken[n] = true
	s.names[importPath] = n
	s.alias[importPath] = n != name || n != path.Base(importPath)
	return n
}

// qualifier is a types.Qualifier for the generated file.
func (s *importSet) qualifier(p *types.Package) string {
	if p.Path() == s.self {
		return ""
	}
	if n, ok := s.names[p.Path()]; ok {
		return n
	}
	// Not collected by checkTypes: a bug, but keep the output compilable.
	return s.add(p.Path(), p.Name())
}

// specs returns the import specs, standard library first, each group
// sorted by path.
func (s *importSet) specs() (std, other []string) {
	paths := make([]string, 0, len(s.names))
	for p := range s.names {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		spec := strconv.Quote(p)
		if s.alias[p] {
			spec = s.names[p] + " " + spec
		}
		if isStd(p) {
			std = append(std, spec)
		} else {
			other = append(other, spec)
		}
	}
	return std, other
}

// isStd reports whether an import path looks like the standard library's:
// no dot in its first element.
func isStd(p string) bool {
	first := p
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			first = p[:i]
			break
		}
	}
	for i := 0; i < len(first); i++ {
		if first[i] == '.' {
			return false
		}
	}
	return true
}

// namedAs reports whether t is the named type pkg.name ("" for the
// universe, e.g. error).
func namedAs(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != name {
		return false
	}
	if n.Obj().Pkg() == nil {
		return pkg == ""
	}
	return n.Obj().Pkg().Path() == pkg
}

// writable checks that the file can write type t (no value of it is
// built): the named types in it are accessible, and their packages are
// collected.
func (c *typeChecker) writable(t types.Type, seen map[types.Type]bool) error {
	if seen[t] {
		return nil
	}
	seen[t] = true
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if err := c.accessible(t.Obj()); err != nil {
			return err
		}
		for i := 0; i < t.TypeArgs().Len(); i++ {
			if err := c.writable(t.TypeArgs().At(i), seen); err != nil {
				return err
			}
		}
		return nil
	case *types.Pointer:
		return c.writable(t.Elem(), seen)
	case *types.Slice:
		return c.writable(t.Elem(), seen)
	case *types.Array:
		return c.writable(t.Elem(), seen)
	case *types.Map:
		if err := c.writable(t.Key(), seen); err != nil {
			return err
		}
		return c.writable(t.Elem(), seen)
	case *types.Chan:
		return c.writable(t.Elem(), seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := 0; i < tup.Len(); i++ {
				if err := c.writable(tup.At(i).Type(), seen); err != nil {
					return err
				}
			}
		}
		return nil
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if err := c.writable(t.Field(i).Type(), seen); err != nil {
				return err
			}
		}
		return nil
	case *types.Interface:
		for i := 0; i < t.NumExplicitMethods(); i++ {
			if err := c.writable(t.ExplicitMethod(i).Type(), seen); err != nil {
				return err
			}
		}
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if err := c.writable(t.EmbeddedType(i), seen); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}
