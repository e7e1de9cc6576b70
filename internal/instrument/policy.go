package instrument

import (
	"go/types"

	"github.com/dowse-go/dowse/rt"
)

// Treatment is how the rewrite treats the calls of one function: the
// per-callee policy. The isolation sandbox will add a treatment of its
// own (calls redirected to solver-chosen results).
type Treatment int

const (
	// Concrete: the callee runs as it is. Symbolic arguments (and the
	// elements of slices and aggregates passed to it) are recorded as
	// concretized, and its results are concrete.
	Concrete Treatment = iota
	// Instrumented: the callee is rewritten too; calls announce argument
	// shadows and pick up result shadows.
	Instrumented
	// Modelled: the call is replaced by a model in rt that returns the
	// same results with shadows (see rt.Models).
	Modelled
)

func (t Treatment) String() string {
	switch t {
	case Instrumented:
		return "instrumented"
	case Modelled:
		return "modelled"
	}
	return "concrete"
}

// models maps the full names of modelled functions to their models in rt.
var models = rt.Models()

// DefaultPolicy is the policy of a binary whose instrumented packages are
// those for which instrumented reports true (nil: none besides the
// package being rewritten, which is always instrumented): functions with
// a model are modelled, generic functions and methods of generic types
// are concrete (generic code keeps no shadows of type-parameter values),
// functions of instrumented packages are instrumented, and the rest is
// concrete.
func DefaultPolicy(instrumented func(pkgPath string) bool) func(*types.Func) Treatment {
	return func(fn *types.Func) Treatment {
		switch {
		case fn.Pkg() == nil:
			return Concrete
		case models[fn.FullName()] != "":
			return Modelled
		case isGeneric(fn):
			return Concrete
		case instrumented != nil && instrumented(fn.Pkg().Path()):
			return Instrumented
		}
		return Concrete
	}
}

// treatment is the policy's decision for a call of fn from this file: the
// package being rewritten is always instrumented (its generic code
// excepted).
func (fl *file) treatment(fn *types.Func) Treatment {
	policy := fl.opts.Policy
	if policy == nil {
		policy = DefaultPolicy(nil)
	}
	if fn.Pkg() != nil && (fn.Pkg() == fl.pkg.Types || fn.Pkg().Path() == fl.pkg.Types.Path()) {
		policy = DefaultPolicy(func(string) bool { return true })
	}
	return policy(fn)
}
