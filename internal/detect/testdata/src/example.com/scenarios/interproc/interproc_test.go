package interproc

import (
	"testing"

	"go.uber.org/mock/gomock"

	"example.com/billing"
	"example.com/billing/mocks"
)

// newStore hides the mock behind the interface: only the interprocedural
// mode sees that its result is a mock.
func newStore(t *testing.T) billing.Store {
	return mocks.NewMockStore(gomock.NewController(t))
}

// check calls a method on whatever store it is given.
func check(s billing.Store) error {
	_, err := s.Balance("a") // interprocedural: s is a mock when TestInterproc calls check
	return err
}

func pick(mock, real billing.Store, useMock bool) billing.Store {
	if useMock {
		return mock
	}
	return real
}

func TestInterproc(t *testing.T) {
	s := newStore(t)
	_ = s.Debit("a", 1) // interprocedural: result of a helper
	_ = check(s)
	p := pick(s, billing.NewMemStore(nil), true)
	_, _ = p.Balance("a") // interprocedural: through a helper's parameters
	w := billing.Wrap(s)
	_, _ = w.Balance("a") // through production code: only with -into-production
	get := func() billing.Store { return s }
	_, _ = get().Balance("a") // interprocedural: result of a closure
}

func TestReal(t *testing.T) {
	_ = check(billing.NewMemStore(nil))
}
