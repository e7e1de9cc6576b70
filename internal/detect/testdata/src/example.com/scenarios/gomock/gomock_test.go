package gomock

import (
	"testing"
	"time"

	oldgomock "github.com/golang/mock/gomock"
	"go.uber.org/mock/gomock"

	"example.com/billing"
	"example.com/billing/mocks"
	"example.com/billing/oldmocks"
	"example.com/billing/shapeonly"
)

func TestDirect(t *testing.T) {
	ctrl := gomock.NewController(t)
	defer ctrl.Finish()
	store := mocks.NewMockStore(ctrl)
	notifier := mocks.NewMockNotifier(ctrl)
	store.EXPECT().Balance("a").Return(int64(9), nil).AnyTimes() // want "mock invocation: mocks.MockStore.EXPECT"
	notifier.EXPECT().Notify("a", gomock.Any()).Return(nil)      // want "mock invocation: mocks.MockNotifier.EXPECT"
	svc := billing.NewService(store, notifier, &billing.MockClock{})
	if err := svc.Charge("a", 1); err != nil {
		t.Fatal(err)
	}
}

func TestAliases(t *testing.T) {
	ctrl := gomock.NewController(t)
	m := mocks.NewMockStore(ctrl)
	alias := m
	var s billing.Store = alias
	if _, err := s.Balance("a"); err != nil { // want "mock invocation: billing.Store.Balance"
		t.Fatal(err)
	}
	if back, ok := s.(*mocks.MockStore); ok {
		_ = back.Debit("a", 1) // want "mock invocation: mocks.MockStore.Debit"
	}
	// Decoy: a real store in a variable with a mock-like name.
	var mockStore billing.Store = billing.NewMemStore(nil)
	_, _ = mockStore.Balance("a")
	// A real type named MockClock is not a mock.
	clock := &billing.MockClock{T: time.Unix(0, 0)}
	clock.Advance(time.Second)
	_ = clock.Now()
}

func newStore(t *testing.T, ctrl *gomock.Controller) *mocks.MockStore {
	t.Helper()
	m := mocks.NewMockStore(ctrl)
	m.EXPECT().Balance(gomock.Any()).Return(int64(1), nil).AnyTimes() // want "mock invocation: mocks.MockStore.EXPECT"
	return m
}

func TestHelperAndClosures(t *testing.T) {
	ctrl := gomock.NewController(t)
	store := newStore(t, ctrl)
	t.Run("sub", func(t *testing.T) {
		if b, _ := store.Balance("a"); b != 1 { // want "mock invocation: mocks.MockStore.Balance"
			t.Fatalf("balance %d", b)
		}
	})
	old := oldmocks.NewMockClock(oldgomock.NewController(t))
	old.EXPECT().Now().Return(time.Unix(0, 0)) // want "mock invocation: oldmocks.MockClock.EXPECT"
	_ = old.Now()                              // want "mock invocation: oldmocks.MockClock.Now"
	n := shapeonly.NewNotifier(ctrl)
	n.EXPECT().Notify("a", "b").Return(nil) // want "mock invocation: shapeonly.Notifier.EXPECT"
	var f shapeonly.Store
	if f.BalanceCallCount() != 0 { // want "mock invocation: shapeonly.Store.BalanceCallCount"
		t.Fatal("calls")
	}
}
