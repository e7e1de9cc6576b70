package rt

import (
	"reflect"
	"sort"
	"sync"
	"sync/atomic"
)

// The isolation sandbox (docs/isolate.md).
//
// In the instrumented build, every isolated call of a unit package (a
// call that may reach the environment: a file, the network, the clock, a
// database) calls a function of a generated file of that package instead
// (internal/isolate writes it). Each isolated call site has a variable of
// the callee's func type (the receiver first for a method): when the
// package's switch is on, the call returns what that variable returns —
// a stub built from the target's inputs (a ShapeFunc with Sandbox set:
// per occurrence its results, and the pointees it writes) — or, when the
// variable is nil, the zero values. The real callee never runs then. The
// generated file registers the switch and the variables here in its init
// function; a worker turns the switch on and sets the variables of the
// target's sites before each run.

// sandboxUnit is one package's sandbox: its switch and its sites'
// variables, by key.
type sandboxUnit struct {
	isolated *bool
	vars     map[string]reflect.Value // pointers to the variables
}

var sandbox struct {
	mu    sync.Mutex
	units map[string]*sandboxUnit // by package path
}

// isolatedCalls counts the isolated calls of the current run.
var isolatedCalls atomic.Int64

// Sandbox registers the sandbox of package pkg: isolated points to its
// switch, and vars maps each isolated call site's key to a pointer to its
// variable.
func Sandbox(pkg string, isolated *bool, vars map[string]any) {
	sandbox.mu.Lock()
	defer sandbox.mu.Unlock()
	if sandbox.units == nil {
		sandbox.units = map[string]*sandboxUnit{}
	}
	u := &sandboxUnit{isolated: isolated, vars: map[string]reflect.Value{}}
	for k, p := range vars {
		u.vars[pkg+"."+k] = reflect.ValueOf(p)
	}
	sandbox.units[pkg] = u
}

// SandboxCall is called by an isolated call, in place of the callee, when
// its package's switch is on. The arguments the caller announced are
// ignored on purpose (they are not lost: nothing runs on them).
func SandboxCall() {
	isolatedCalls.Add(1)
	if on.Load() && lock() {
		cur.pending.valid = false
		unlock()
	}
}

// sandboxVar returns the variable of the isolated call site key (a
// pointer), if it is registered.
func sandboxVar(key string) (reflect.Value, bool) {
	sandbox.mu.Lock()
	defer sandbox.mu.Unlock()
	for _, u := range sandbox.units {
		if v, ok := u.vars[key]; ok {
			return v, true
		}
	}
	return reflect.Value{}, false
}

// isolate turns every registered package's switch on (or off) and resets
// every site's variable to nil: the sites a run does not set return zero
// values, and no real callee runs.
func isolate(on bool) {
	sandbox.mu.Lock()
	defer sandbox.mu.Unlock()
	keys := make([]string, 0, len(sandbox.units))
	for k := range sandbox.units {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		u := sandbox.units[k]
		*u.isolated = on
		for _, v := range u.vars {
			v.Elem().Set(reflect.Zero(v.Elem().Type()))
		}
	}
	isolatedCalls.Store(0)
}
