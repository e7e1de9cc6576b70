package z3

import (
	"strings"
	"testing"
	"time"
)

func TestSolveAndModel(t *testing.T) {
	z := NewContext()
	defer z.Close()
	s, err := z.NewSolver(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x := z.BVVar(32)
	// x * 3 == 0x5eedf00d has exactly one solution modulo 2^32.
	s.Assert(z.Eq(z.BV(BVMul, x, z.BVVal(3, 32)), z.BVVal(0x5eedf00d, 32)))
	if r, err := s.Check(); r != Sat || err != nil {
		t.Fatalf("Check = %v, %v", r, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	v, err := m.Uint64(x)
	if err != nil {
		t.Fatal(err)
	}
	if uint32(v)*3 != 0x5eedf00d {
		t.Errorf("x = %#x does not satisfy x*3 == 0x5eedf00d", v)
	}
	// A constant the formula does not mention is completed.
	if _, err := m.Uint64(z.BVVar(8)); err != nil {
		t.Errorf("model completion: %v", err)
	}
}

func TestAssumptionsAndCore(t *testing.T) {
	z := NewContext()
	defer z.Close()
	s, err := z.NewSolver(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x := z.BVVar(8)
	p, q := z.BoolVar(), z.BoolVar()
	s.Assert(z.ULt(x, z.BVVal(10, 8)))
	s.Assert(z.Implies(p, z.Eq(x, z.BVVal(200, 8))))
	s.Assert(z.Implies(q, z.Eq(x, z.BVVal(4, 8))))
	if r, _ := s.Check(p, q); r != Unsat {
		t.Fatalf("Check(p, q) = %v, want unsat", r)
	}
	core := s.UnsatCore()
	if len(core) != 1 || z.String(core[0]) != z.String(p) {
		t.Errorf("core = %v, want [p]", core)
	}
	if r, _ := s.Check(q); r != Sat {
		t.Fatalf("Check(q) = %v, want sat", r)
	}
}

func TestErrorsAreReportedNotFatal(t *testing.T) {
	z := NewContext()
	defer z.Close()
	// Adding bit-vectors of different widths is a sort error.
	bad := z.BV(BVAdd, z.BVVar(8), z.BVVar(16))
	if err := z.check("add", bad); err == nil {
		t.Fatal("no error for an ill-sorted term")
	}
	if err := z.Err(); err != nil {
		t.Errorf("error state not reset: %v", err)
	}
}

func TestTimeoutAndInterrupt(t *testing.T) {
	hard := func(z *Context, s *Solver) {
		// Factoring a 64-bit semiprime with bit-vector multiplication.
		x, y := z.BVVar(64), z.BVVar(64)
		one := z.BVVal(1, 64)
		s.Assert(z.Eq(z.BV(BVMul, z.ZeroExt(64, x), z.ZeroExt(64, y)), z.ZeroExt(64, z.BVVal(0xd3c21bcecceda1, 64))))
		s.Assert(z.ULt(one, x))
		s.Assert(z.ULt(one, y))
		s.Assert(z.ULt(x, z.BVVal(1<<32, 64)))
		s.Assert(z.ULt(y, z.BVVal(1<<32, 64)))
	}
	t.Run("timeout", func(t *testing.T) {
		z := NewContext()
		defer z.Close()
		s, err := z.NewSolver(50 * time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		hard(z, s)
		start := time.Now()
		r, err := s.Check()
		if r != Unknown || err != nil {
			t.Skipf("the hard instance was decided (%v, %v) in %v", r, err, time.Since(start))
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("timeout of 50ms took %v", el)
		}
		if why := s.ReasonUnknown(); !strings.Contains(why, "timeout") && !strings.Contains(why, "canceled") {
			t.Errorf("reason %q", why)
		}
	})
	t.Run("interrupt", func(t *testing.T) {
		z := NewContext()
		defer z.Close()
		s, err := z.NewSolver(0)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		hard(z, s)
		timer := time.AfterFunc(50*time.Millisecond, z.Interrupt)
		defer timer.Stop()
		start := time.Now()
		r, _ := s.Check()
		if r != Unknown {
			t.Skipf("the hard instance was decided (%v) in %v", r, time.Since(start))
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("interrupt after 50ms took %v", el)
		}
	})
}
