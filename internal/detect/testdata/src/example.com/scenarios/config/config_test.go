package config

import (
	"testing"

	"example.com/billing"
	"example.com/billing/userfake"
)

func TestUserFake(t *testing.T) {
	db := &userfake.DB{Rows: map[string]int64{}}
	db.Seed("a", 3) // a mock with -mock-type example.com/billing/userfake.DB
	svc := billing.NewService(db, &billing.LogNotifier{}, &billing.MockClock{})
	_ = svc.Charge("a", 1)
	stub := userfake.NewStub()
	_, _ = stub.Balance("a") // a mock with -mock-func example.com/billing/userfake.NewStub
}
