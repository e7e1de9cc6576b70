package generated

import (
	"testing"
	"time"

	"github.com/gojuno/minimock/v3"

	"example.com/billing"
	"example.com/billing/fakes"
	"example.com/billing/minimocks"
	"example.com/billing/moqmocks"
)

type fixture struct {
	clock    *fakes.FakeClock
	notifier billing.Notifier
	svc      *billing.Service
}

func newFixture() *fixture {
	f := &fixture{clock: new(fakes.FakeClock)}
	f.notifier = &moqmocks.NotifierMock{NotifyFunc: func(string, string) error { return nil }}
	f.clock.NowReturns(time.Unix(0, 0)) // want "mock invocation: fakes.FakeClock.NowReturns"
	f.svc = billing.NewService(billing.NewMemStore(map[string]int64{"a": 5}), f.notifier, f.clock)
	return f
}

func TestFixture(t *testing.T) {
	f := newFixture()
	if err := f.svc.Charge("a", 1); err != nil {
		t.Fatal(err)
	}
	if f.clock.NowCallCount() != 1 { // want "mock invocation: fakes.FakeClock.NowCallCount"
		t.Fatal("Now not called")
	}
	if err := f.notifier.Notify("a", "b"); err != nil { // want "mock invocation: billing.Notifier.Notify"
		t.Fatal(err)
	}
	_ = f.clock.Invocations() // want "mock invocation: fakes.FakeClock.Invocations"
}

func TestMoq(t *testing.T) {
	m := &moqmocks.NotifierMock{NotifyFunc: func(string, string) error { return nil }}
	_ = m.Notify("a", "b")         // want "mock invocation: moqmocks.NotifierMock.Notify"
	if len(m.NotifyCalls()) != 1 { // want "mock invocation: moqmocks.NotifierMock.NotifyCalls"
		t.Fatal("calls")
	}
	_ = m.NotifyFunc("direct", "call") // a call of a func-typed field: not a method call
}

func TestMinimock(t *testing.T) {
	mc := minimock.NewController(t)
	clock := minimocks.NewClockMock(mc)
	clock.NowMock.Return(time.Unix(0, 0)) // the NowMock field is a recorder, not the mock
	_ = clock.Now()                       // want "mock invocation: minimocks.ClockMock.Now"
	clock.MinimockFinish()                // want "mock invocation: minimocks.ClockMock.MinimockFinish"
}
