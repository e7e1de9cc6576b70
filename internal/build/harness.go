package build

import (
	"bytes"
	"fmt"
	"go/format"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/load"
	"github.com/dowse-go/dowse/internal/mock"
)

// harness is a generated file that serves a variant's PUTs to the
// coordinator.
type harness struct {
	path string   // where the file appears to be (in the package directory; it does not exist there)
	src  []byte   //
	test string   // the test function serving the PUTs
	puts []string // the PUTs it serves
	// mocks says the harness declares generated mock types: the test
	// files dowse generated earlier, which declare them too, are left out
	// of the worker.
	mocks bool
}

// harnessFiles returns one harness per package variant (in-package test,
// external test) that declares supported PUTs among targets. taken holds
// paths already in the overlay.
func harnessFiles(p *load.Package, targets []*load.Target, taken map[string]string) ([]harness, error) {
	var out []harness
	for _, external := range []bool{false, true} {
		var puts, exprs []string
		funcs := map[string]bool{}
		dyn := map[string]types.Type{}
		mocks := map[string]*mock.Type{}
		vars := map[string]*types.Var{}
		for _, t := range targets {
			if (t.Kind == load.KindPUT || t.Kind.Auto()) && t.Err == nil && t.External == external {
				puts = append(puts, t.Name)
				expr := t.Name
				if t.Kind.Auto() {
					expr = t.Expr
				}
				exprs = append(exprs, expr)
				for f := range t.Funcs {
					funcs[f] = true
				}
				maps.Copy(dyn, t.Dyn)
				for _, m := range t.Mocks {
					mocks[m.Name] = m
				}
				maps.Copy(vars, t.Vars)
			}
		}
		// The functions that build inputs (rt.Build) are served as "@expr".
		for _, f := range slices.Sorted(maps.Keys(funcs)) {
			puts, exprs = append(puts, "@"+f), append(exprs, f)
		}
		for d := range dyn {
			if _, isVar := vars[d]; isVar || d == "error" || d == "io.Reader" {
				delete(dyn, d) // built by rt, or a variable (harnessSource)
			}
		}
		if len(puts) == 0 {
			continue
		}
		v := p.Test
		if v == nil && !external {
			v = p.Plain // automatic targets of a package without tests
		}
		base, test := "zz_dowse_worker", "TestDowseWorker"
		if external {
			v = p.XTest
			base, test = "zz_dowse_worker_x", "TestDowseWorkerX"
		}
		if v == nil || v.Types == nil {
			return nil, fmt.Errorf("%s: no type information for the test package", p.Path)
		}
		file, err := freePath(p.Dir, base, taken)
		if err != nil {
			return nil, err
		}
		h := harness{path: file, test: freeName(v.Types, test), puts: puts, mocks: len(mocks) > 0}
		var ms []*mock.Type
		for _, n := range slices.Sorted(maps.Keys(mocks)) {
			ms = append(ms, mocks[n])
		}
		h.src, err = harnessSource(v, h.test, puts, exprs, ms, vars, dyn)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// freePath returns dir/base_test.go, or dir/base<n>_test.go, whichever
// first names neither an existing file nor an overlay entry.
func freePath(dir, base string, taken map[string]string) (string, error) {
	for i := 0; i < 100; i++ {
		name := base
		if i > 0 {
			name += strconv.Itoa(i)
		}
		p := filepath.Join(dir, name+"_test.go")
		if _, ok := taken[p]; ok {
			continue
		}
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: no free file name for the worker harness", dir)
}

// freeName returns name, or name<n>, whichever is not declared in pkg's
// scope.
func freeName(pkg *types.Package, name string) string {
	for i := 0; ; i++ {
		n := name
		if i > 0 {
			n += strconv.Itoa(i)
		}
		if pkg.Scope().Lookup(n) == nil {
			return n
		}
	}
}

// harnessSource writes the harness of variant v: a test function that
// hands the targets to rt.Serve: PUTs by name, automatic targets by the
// expressions of their functions (exprs[i] for puts[i]). Import names avoid the package's own
// declarations (which share the file's scope) and builtin names are
// avoided in favour of spelled-out types.
func harnessSource(v *packages.Package, test string, puts, exprs []string, mocks []*mock.Type, vars map[string]*types.Var, dyn map[string]types.Type) ([]byte, error) {
	rtName := freeName(v.Types, "dowsert")
	testingName := freeName(v.Types, "dowsetesting")
	// The mock types' methods name other packages: each is imported
	// under a name the package does not declare.
	imports := map[string]string{}
	qualifier := func(p *types.Package) string {
		if p.Path() == v.Types.Path() {
			return ""
		}
		if n, ok := imports[p.Path()]; ok {
			return n
		}
		n := freeName(v.Types, "dowse_"+p.Name())
		for slices.Contains(slices.Collect(maps.Values(imports)), n) {
			n += "_"
		}
		imports[p.Path()] = n
		return n
	}
	var decls bytes.Buffer
	var records *mock.Type
	for _, m := range mocks {
		decls.WriteString("\n" + m.Source(qualifier, rtName))
		if records == nil && m.Records() {
			records = m
		}
	}
	if records != nil {
		decls.WriteString(mock.RecorderSource(qualifier, records.Helpers(), nil))
	}
	// The dynamic types of interface inputs are served as "@#T":
	// (*T)(nil), so that the worker finds T by its name in the layout;
	// a type of another package (*fs.PathError) is written with its
	// import's name.
	puts, exprs = slices.Clone(puts), slices.Clone(exprs)
	for _, d := range slices.Sorted(maps.Keys(dyn)) {
		puts, exprs = append(puts, "@#"+d), append(exprs, "(*"+types.TypeString(dyn[d], qualifier)+")(nil)")
	}
	// The variables offered as values are served as "@=name".
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		expr := vars[name].Name()
		if q := qualifier(vars[name].Pkg()); q != "" {
			expr = q + "." + expr
		}
		puts, exprs = append(puts, "@="+name), append(exprs, expr)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by dowse. DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package %s\n\n", v.Types.Name())
	fmt.Fprintf(&b, "import (\n\t%s %q\n\t%s %q\n", rtName, RuntimeImport, testingName, "testing")
	for _, path := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&b, "\t%s %q\n", imports[path], path)
	}
	fmt.Fprintf(&b, ")\n\n")
	fmt.Fprintf(&b, "// %s serves the package's parameterized unit tests to the dowse coordinator.\n", test)
	fmt.Fprintf(&b, "func %s(t *%s.T) {\n", test, testingName)
	fmt.Fprintf(&b, "\t%s.Serve(t, map[string]interface{}{\n", rtName)
	for i, name := range puts {
		fmt.Fprintf(&b, "\t\t%q: %s,\n", name, exprs[i])
	}
	fmt.Fprintf(&b, "\t})\n}\n")
	b.Write(decls.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the worker harness: %w", err)
	}
	return src, nil
}

// generatedStubs returns, for each test file of p that dowse generated,
// a replacement holding its package clause alone.
func generatedStubs(p *load.Package) map[string][]byte {
	stubs := map[string][]byte{}
	for _, v := range []*packages.Package{p.Test, p.XTest} {
		if v == nil {
			continue
		}
		for _, f := range v.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if strings.HasSuffix(name, "_test.go") && load.WrittenByDowse(f) {
				stubs[name] = []byte(load.GeneratedHeader + "\n\npackage " + f.Name.Name + "\n")
			}
		}
	}
	return stubs
}
