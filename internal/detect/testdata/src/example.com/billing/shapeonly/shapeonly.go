// Package shapeonly holds mocks whose generator header was stripped (as
// when a module vendors or rewrites them): they are recognised by shape.
package shapeonly

import (
	"sync"

	gomock "go.uber.org/mock/gomock"
)

// Notifier is a gomock-shaped mock without its header.
type Notifier struct {
	ctrl     *gomock.Controller
	recorder *NotifierRecorder
}

// NotifierRecorder records expectations.
type NotifierRecorder struct{ mock *Notifier }

// NewNotifier returns a mock.
func NewNotifier(ctrl *gomock.Controller) *Notifier {
	m := &Notifier{ctrl: ctrl}
	m.recorder = &NotifierRecorder{m}
	return m
}

// EXPECT returns the recorder.
func (m *Notifier) EXPECT() *NotifierRecorder { return m.recorder }

// Notify mocks Notify.
func (m *Notifier) Notify(account, message string) error {
	ret := m.ctrl.Call(m, "Notify", account, message)
	err, _ := ret[0].(error)
	return err
}

// Notify records an expectation.
func (r *NotifierRecorder) Notify(account, message any) *gomock.Call { return &gomock.Call{} }

// Store is a counterfeiter-shaped fake without its header.
type Store struct {
	BalanceStub        func(string) (int64, error)
	balanceMutex       sync.RWMutex
	balanceArgsForCall []struct{ arg1 string }
	balanceReturns     struct {
		result1 int64
		result2 error
	}
}

// Balance is the faked method.
func (f *Store) Balance(account string) (int64, error) {
	f.balanceMutex.Lock()
	defer f.balanceMutex.Unlock()
	f.balanceArgsForCall = append(f.balanceArgsForCall, struct{ arg1 string }{account})
	return f.balanceReturns.result1, f.balanceReturns.result2
}

// BalanceCallCount counts calls.
func (f *Store) BalanceCallCount() int { return len(f.balanceArgsForCall) }

// Debit is the other faked method.
func (f *Store) Debit(account string, amount int64) error { return nil }
