// Package bank is the example that dowse's README runs dowse on: account
// arithmetic with a planted bug, and a parser for amounts.
package bank

import "errors"

// ErrInsufficient is returned when a withdrawal exceeds the balance plus
// the overdraft limit.
var ErrInsufficient = errors.New("insufficient funds")

// Withdraw returns the balance after taking amount from it. Accounts may
// go up to limit below zero. Amounts in cents; amount must be positive.
func Withdraw(balance, amount, limit int64) (int64, error) {
	if amount <= 0 {
		return balance, errors.New("amount must be positive")
	}
	// Bug: balance-amount can overflow for very negative balances.
	if balance-amount < -limit {
		return balance, ErrInsufficient
	}
	return balance - amount, nil
}

// ParseCents parses an amount written as digits with an optional
// fractional part of exactly two digits ("12", "12.50") into cents.
func ParseCents(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 12 {
		return 0, false
	}
	var cents int64
	frac := -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' && frac < 0 && i > 0:
			frac = 0
		case c >= '0' && c <= '9':
			cents = cents*10 + int64(c-'0')
			if frac >= 0 {
				frac++
			}
		default:
			return 0, false
		}
	}
	switch frac {
	case -1:
		return cents * 100, true
	case 2:
		return cents, true
	}
	return 0, false
}
