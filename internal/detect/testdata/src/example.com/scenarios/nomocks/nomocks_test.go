package nomocks

import (
	"testing"

	"example.com/billing"
)

func TestPlain(t *testing.T) {
	s := billing.NewMemStore(map[string]int64{"a": 3})
	svc := billing.NewService(s, &billing.LogNotifier{}, &billing.MockClock{})
	if err := svc.Charge("a", 1); err != nil {
		t.Fatal(err)
	}
}

func ExampleService_Charge() {
	_ = billing.NewService(nil, nil, nil)
}
