package solver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dowse-go/dowse/internal/query"
	"github.com/dowse-go/dowse/internal/solver/z3"
	"github.com/dowse-go/dowse/internal/sym"
	"github.com/dowse-go/dowse/rt"
)

// Float terms go to Z3's floating-point theory: a float leaf is its
// bit-vector reinterpreted (OpFromBits), so a model gives the inputs'
// IEEE bits exactly; arithmetic rounds to nearest even and comparisons
// are IEEE's, as Go's. The layers above the core know nothing of floats:
// each passes a query with a float term down untouched (hasFloat), and
// the core skips its integer stages for it (solveFloat).

// hasFloat reports whether a constraint of q has a float term.
func hasFloat(q query.Query) bool {
	for _, c := range q.Constraints {
		if sym.HasFloat(c) {
			return true
		}
	}
	return false
}

var fpOps = map[rt.Op]z3.FPOp{rt.OpAdd: z3.FPAdd, rt.OpSub: z3.FPSub, rt.OpMul: z3.FPMul, rt.OpQuo: z3.FPDiv}

// applyFloat encodes a float term (sym.IsFloat) whose operands are
// encoded as args.
func (en *encoder) applyFloat(e *sym.Expr, args []term) (term, error) {
	z := en.z
	k, k2 := e.Kind(), e.K2()
	fw := uint(k.FloatBits())
	switch op := e.Op(); op {
	case rt.OpConst:
		return term{t: z.FPFromBits(z.BVVal(e.Bits(), fw), fw)}, nil
	case rt.OpFromBits:
		return term{t: z.FPFromBits(args[0].t, fw)}, nil
	case rt.OpAdd, rt.OpSub, rt.OpMul, rt.OpQuo:
		return term{t: z.FP(fpOps[op], args[0].t, args[1].t)}, nil
	case rt.OpNeg:
		return term{t: z.FPNeg(args[0].t)}, nil
	case rt.OpEq:
		return term{t: z.FPEq(args[0].t, args[1].t)}, nil
	case rt.OpNe:
		return term{t: z.Not(z.FPEq(args[0].t, args[1].t))}, nil
	case rt.OpLt:
		return term{t: z.FPLt(args[0].t, args[1].t)}, nil
	case rt.OpLe:
		return term{t: z.FPLe(args[0].t, args[1].t)}, nil
	case rt.OpGt:
		return term{t: z.FPLt(args[1].t, args[0].t)}, nil
	case rt.OpGe:
		return term{t: z.FPLe(args[1].t, args[0].t)}, nil
	case rt.OpConv:
		switch {
		case k.Float() && k2.Float():
			return term{t: z.FPToFP(args[0].t, fw)}, nil
		case k.Float():
			return term{t: z.FPFromInt(args[0].t, k2.Signed(), fw)}, nil
		default:
			// In range: the run recorded the range check as a branch.
			return term{t: z.FPToInt(args[0].t, k.Signed(), uint(k.Bits()))}, nil
		}
	case rt.OpIte:
		return term{t: z.Ite(args[0].t, args[1].t, args[2].t)}, nil
	}
	return term{}, unsupported("float operator %d in %v", e.Op(), e)
}

// solveFloat decides a query with float terms: its integer stages (the
// pinned search, linear arithmetic, the divisors' search, the narrow
// attempt) do not model floats, so it tries the candidates' search
// (core_floatsearch.go), then one check of the full encoding in Z3's
// QF_FPBV logic, within the query's time bound;
// the model is moved towards the seed by evaluation (nearSeed), since
// each preference round would bit-blast the float operations again.
func (s *Z3) solveFloat(ctx context.Context, z *z3.Context, q Query, timeout time.Duration) (Result, error) {
	if model, ok := floatSearch(q); ok {
		s.opts.Metrics.add(func(st *Stats) { st.FloatSearched++ })
		return Result{Status: Sat, Model: model}, nil
	}
	en := newEncoder(z, q.Leaves)
	formulas, err := en.constraints(q.Constraints)
	var u *unsupportedError
	if errors.As(err, &u) {
		return unknown("unsupported: "+u.msg, false), nil
	}
	if err != nil {
		return Result{}, fmt.Errorf("solver: float query: %w", err)
	}
	sv, err := z.NewSolverFor("QF_FPBV", timeout)
	if err != nil {
		return Result{}, fmt.Errorf("solver: float query: %w", err)
	}
	defer sv.Close()
	if !assertAll(z, sv, formulas, en.domain, en.lemmas) {
		return Result{}, fmt.Errorf("solver: float query: assert: %w", z.Err())
	}
	start := time.Now()
	defer func() {
		el := time.Since(start)
		s.opts.Metrics.add(func(st *Stats) { st.FloatQueries++; st.FloatTime += el })
	}()
	return s.check(ctx, z, sv, nil, timeout, func() (Result, error) {
		res, err := s.model(en, sv, q.Seed)
		if err == nil && !s.opts.KeepSeed {
			nearSeed(q, res.Model)
		}
		return res, err
	})
}
