package containers

import (
	"testing"

	"go.uber.org/mock/gomock"

	"example.com/billing"
	"example.com/billing/mocks"
	"example.com/billing/moqmocks"
)

func TestSlicesAndArrays(t *testing.T) {
	ctrl := gomock.NewController(t)
	m := mocks.NewMockStore(ctrl)
	stores := [2]billing.Store{m, billing.NewMemStore(nil)}
	_, _ = stores[0].Balance("a") // want "mock invocation: billing.Store.Balance"
	_, _ = stores[1].Balance("a")
	for _, s := range stores {
		_, _ = s.Balance("a") // want "mock invocation: billing.Store.Balance"
	}
	var list []billing.Store
	list = append(list, billing.NewMemStore(nil))
	list = append(list, m)
	// append does not keep positions: every element of list may be the mock.
	_, _ = list[0].Balance("a") // want "mock invocation: billing.Store.Balance"
	copied := make([]billing.Store, len(list))
	copy(copied, list)
	_ = copied[1].Debit("a", 1) // want "mock invocation: billing.Store.Debit"
	reals := []billing.Store{billing.NewMemStore(nil)}
	_, _ = reals[0].Balance("a")
}

func TestMapsAndChannels(t *testing.T) {
	byKind := map[string]billing.Notifier{
		"moq":  &moqmocks.NotifierMock{},
		"real": &billing.LogNotifier{},
	}
	_ = byKind["moq"].Notify("a", "b") // want "mock invocation: billing.Notifier.Notify"
	_ = byKind["real"].Notify("a", "b")
	for kind, n := range byKind {
		_ = n.Notify("a", kind) // want "mock invocation: billing.Notifier.Notify"
	}
	if n, ok := byKind["moq"]; ok {
		_ = n.Notify("a", "b") // want "mock invocation: billing.Notifier.Notify"
	}
	ch := make(chan billing.Notifier, 1)
	ch <- byKind["moq"]
	_ = (<-ch).Notify("a", "b") // want "mock invocation: billing.Notifier.Notify"
	var captured billing.Notifier
	func() { captured = byKind["moq"] }()
	_ = captured.Notify("a", "c") // want "mock invocation: billing.Notifier.Notify"
}
