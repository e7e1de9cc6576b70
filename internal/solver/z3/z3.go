// Package z3 is a thin cgo binding to the Z3 SMT solver's C API, reduced to
// what dowse needs: bit-vector and Boolean terms, solvers with time limits,
// assumptions and unsat cores, and model evaluation; and mathematical
// integers for linear arithmetic.
//
// A Context and everything created from it must be used by one goroutine
// at a time; only Context.Interrupt may be called concurrently. Terms live
// as long as their Context (Z3's non-reference-counted mode): bound memory
// by closing the Context and creating a new one.
//
// The binding links against the system's libz3 (Debian's libz3-dev).
package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// Version is the full version string of the linked libz3.
func Version() string { return C.GoString(C.Z3_get_full_version()) }

// Context is a Z3 context.
type Context struct {
	c      C.Z3_context
	mu     sync.Mutex // guards c against Close racing with Interrupt
	closed bool
	bv     map[uint]C.Z3_sort
	boolS  C.Z3_sort
	intS   C.Z3_sort // made on first use
	nextID C.int
}

// NewContext creates a context that produces models.
func NewContext() *Context {
	cfg := C.Z3_mk_config()
	model, tru := C.CString("model"), C.CString("true")
	C.Z3_set_param_value(cfg, model, tru)
	C.free(unsafe.Pointer(model))
	C.free(unsafe.Pointer(tru))
	c := C.Z3_mk_context(cfg)
	C.Z3_del_config(cfg)
	// Report errors through error codes, never by exiting the process.
	C.Z3_set_error_handler(c, nil)
	return &Context{c: c, bv: map[uint]C.Z3_sort{}, boolS: C.Z3_mk_bool_sort(c)}
}

// Close frees the context and every object created from it.
func (z *Context) Close() {
	z.mu.Lock()
	defer z.mu.Unlock()
	if !z.closed {
		z.closed = true
		C.Z3_del_context(z.c)
	}
}

// Interrupt stops a running check of a solver of this context, which then
// returns Unknown. It is safe to call from any goroutine, also after Close.
func (z *Context) Interrupt() {
	z.mu.Lock()
	defer z.mu.Unlock()
	if !z.closed {
		C.Z3_interrupt(z.c)
	}
}

// ErrZ3 is wrapped by the errors Z3 reports.
var ErrZ3 = errors.New("z3")

// Err returns the error of the last failed API call since the previous
// Err, or nil, and resets the error state.
func (z *Context) Err() error {
	code := C.Z3_get_error_code(z.c)
	if code == C.Z3_OK {
		return nil
	}
	msg := C.GoString(C.Z3_get_error_msg(z.c, code))
	C.Z3_set_error(z.c, C.Z3_OK)
	return fmt.Errorf("%w: %s", ErrZ3, msg)
}

// AST is a Z3 term.
type AST struct{ a C.Z3_ast }

// IsNil reports whether t is the zero AST (the result of a failed call).
func (t AST) IsNil() bool { return t.a == nil }

// String renders t in SMT-LIB syntax.
func (z *Context) String(t AST) string { return C.GoString(C.Z3_ast_to_string(z.c, t.a)) }

// Check returns an error naming op if t is nil, and the context's error.
func (z *Context) check(op string, t AST) error {
	if err := z.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if t.IsNil() {
		return fmt.Errorf("%s: %w: no result", op, ErrZ3)
	}
	return nil
}

func asts(ts []AST) *C.Z3_ast {
	if len(ts) == 0 {
		return nil
	}
	return (*C.Z3_ast)(unsafe.Pointer(&ts[0]))
}
