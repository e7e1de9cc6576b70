// Package billing is the production code of the detector's fixtures.
package billing

import (
	"errors"
	"time"
)

// Store holds balances.
type Store interface {
	Balance(account string) (int64, error)
	Debit(account string, amount int64) error
}

// Notifier sends messages.
type Notifier interface {
	Notify(account, message string) error
}

// Clock tells the time.
type Clock interface {
	Now() time.Time
}

// ErrInsufficientFunds is returned by Charge.
var ErrInsufficientFunds = errors.New("insufficient funds")

// Service charges accounts.
type Service struct {
	Store    Store
	Notifier Notifier
	Clock    Clock
}

// NewService returns a service.
func NewService(s Store, n Notifier, c Clock) *Service { return &Service{s, n, c} }

// Charge debits an account.
func (s *Service) Charge(account string, amount int64) error {
	b, err := s.Store.Balance(account)
	if err != nil {
		return err
	}
	if b < amount {
		return ErrInsufficientFunds
	}
	if err := s.Store.Debit(account, amount); err != nil {
		return err
	}
	return s.Notifier.Notify(account, s.Clock.Now().Format(time.DateOnly))
}

// Wrap returns s unchanged (a production pass-through).
func Wrap(s Store) Store { return s }

// MemStore is a real Store.
type MemStore struct{ M map[string]int64 }

// NewMemStore returns a MemStore.
func NewMemStore(m map[string]int64) *MemStore { return &MemStore{M: m} }

// Balance returns a balance.
func (m *MemStore) Balance(account string) (int64, error) { return m.M[account], nil }

// Debit debits an account.
func (m *MemStore) Debit(account string, amount int64) error {
	m.M[account] -= amount
	return nil
}

// LogNotifier is a real Notifier.
type LogNotifier struct{ Log []string }

// Notify records a message.
func (l *LogNotifier) Notify(account, message string) error {
	l.Log = append(l.Log, message)
	return nil
}

// MockClock is a real, simulated clock for production dry runs: a type
// with "Mock" in its name that is no mock object.
type MockClock struct{ T time.Time }

// Now returns the simulated time.
func (c *MockClock) Now() time.Time { return c.T }

// Advance moves the simulated time on.
func (c *MockClock) Advance(d time.Duration) { c.T = c.T.Add(d) }
