package bank

import "testing"

// PutWithdrawKeepsLimit is a parameterized unit test: dowse finds inputs
// for it. A successful withdrawal never takes the balance below -limit
// and never raises it.
func PutWithdrawKeepsLimit(t *testing.T, balance, amount, limit int64) {
	if limit < 0 || limit > 1_000_00 {
		t.Skip("assumes a limit between 0 and 1000.00")
	}
	got, err := Withdraw(balance, amount, limit)
	if err != nil {
		return
	}
	if got < -limit {
		t.Errorf("Withdraw(%d, %d, %d) = %d, below the limit", balance, amount, limit, got)
	}
	if got > balance {
		t.Errorf("Withdraw(%d, %d, %d) = %d, more than before", balance, amount, limit, got)
	}
}

// FuzzParseCents is a native fuzz target; dowse treats the function passed
// to f.Fuzz as a PUT and writes its inputs as corpus files.
func FuzzParseCents(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		cents, ok := ParseCents(s)
		if ok && cents < 0 {
			t.Errorf("ParseCents(%q) = %d, negative", s, cents)
		}
	})
}

func TestWithdraw(t *testing.T) {
	if got, err := Withdraw(100, 30, 0); err != nil || got != 70 {
		t.Fatalf("Withdraw(100, 30, 0) = %d, %v", got, err)
	}
}
