package load

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"
)

func TestPackageWrites(t *testing.T) {
	const src = `package p

import "sync"

var (
	scale  = 2
	count  int
	names  = map[string]int{}
	mu     sync.Mutex
	locked struct{ sync.Mutex; n int }
)

func SetScale(n int) { scale = n }

func bump() { count++ }

func Bump() { bump() }

func Later() func() { return func() { scale = 3 } }

func Shadow() { scale := 4; _ = scale }

func Entries() { names["a"] = 1 }

func Address() *int { return &count }

func Lock() { mu.Lock(); locked.n = 1; locked = struct{ sync.Mutex; n int }{} }

type T struct{ v int }

func (t *T) Set() { t.v = 1; SetScale(t.v) }

func Pure(x int) int { return x * scale }

var (
	pattern     *string
	patternOnce sync.Once
)

func Pattern() string {
	patternOnce.Do(func() { p := "a+"; pattern = &p })
	return *pattern
}
`
	pkg, info, f := checkSource(t, src)
	writes := packageWrites(info, pkg, []*ast.File{f})
	fn := func(name string) *types.Func {
		if o, ok := pkg.Scope().Lookup(name).(*types.Func); ok {
			return o
		}
		tn := pkg.Scope().Lookup("T").(*types.TypeName)
		for i := 0; i < tn.Type().(*types.Named).NumMethods(); i++ {
			if m := tn.Type().(*types.Named).Method(i); m.Name() == name {
				return m
			}
		}
		t.Fatalf("no function %s", name)
		return nil
	}
	for _, tt := range []struct {
		name string
		want []string
	}{
		{"SetScale", []string{"scale"}},
		{"Bump", []string{"count"}},    // through bump
		{"Later", []string{"scale"}},   // in a closure
		{"Shadow", nil},                // a local of the same name
		{"Entries", nil},               // the map's entries, not the variable
		{"Address", []string{"count"}}, // its address escapes
		{"Lock", nil},                  // variables holding locks are not copied
		{"Set", []string{"scale"}},     // a method, through SetScale
		{"Pure", nil},
		{"Pattern", nil}, // set once by sync.Once: the Once is not restored
	} {
		if got := stateWritten(writes, fn(tt.name), nil); !slices.Equal(got, tt.want) {
			t.Errorf("%s writes %v, want %v", tt.name, got, tt.want)
		}
	}
}
