package testify

import (
	"os"
	"testing"

	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/suite"

	"example.com/billing"
	"example.com/billing/mockery"
)

type notifierMock struct{ mock.Mock }

func (m *notifierMock) Notify(account, message string) error {
	return m.Called(account, message).Error(0) // want "mock invocation: mock.Mock.Called"
}

var shared billing.Notifier

func TestMain(m *testing.M) {
	shared = &notifierMock{}
	os.Exit(m.Run())
}

type ChargeSuite struct {
	suite.Suite
	store    *mockery.Store
	notifier billing.Notifier
	real     *billing.MemStore
	svc      *billing.Service
}

func (s *ChargeSuite) SetupSuite() {
	s.real = billing.NewMemStore(map[string]int64{"a": 1})
}

func (s *ChargeSuite) SetupTest() {
	s.store = mockery.NewStore(s.T())
	n := new(notifierMock)
	n.On("Notify", mock.Anything, mock.Anything).Return(nil) // want "mock invocation: mock.Mock.On"
	s.notifier = n
	s.svc = billing.NewService(s.store, s.notifier, &billing.MockClock{})
}

func (s *ChargeSuite) TestCharge() {
	s.store.EXPECT().Balance("a").Return(5, nil)   // want "mock invocation: mockery.Store.EXPECT"
	s.store.On("Debit", "a", int64(2)).Return(nil) // want "mock invocation: mock.Mock.On"
	s.NoError(s.svc.Charge("a", 2))
	_ = s.notifier.Notify("a", "direct") // want "mock invocation: billing.Notifier.Notify"
	s.store.AssertExpectations(s.T())    // want "mock invocation: mock.Mock.AssertExpectations"
	b, _ := s.real.Balance("a")
	s.Equal(int64(1), b)
}

func TestChargeSuite(t *testing.T) {
	suite.Run(t, new(ChargeSuite))
}

func TestTable(t *testing.T) {
	m := mockery.NewStore(t)
	m.On("Balance", "a").Return(int64(3), nil) // want "mock invocation: mock.Mock.On"
	tests := []struct {
		name  string
		store billing.Store
	}{
		{"mock", m},
		{"real", billing.NewMemStore(map[string]int64{"a": 3})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if b, _ := tc.store.Balance("a"); b != 3 { // want "mock invocation: billing.Store.Balance"
				t.Fatal(b)
			}
		})
	}
	_ = shared.Notify("a", "b") // want "mock invocation: billing.Notifier.Notify"
}
