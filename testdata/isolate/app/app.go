// Package app is a unit under test whose decisions depend on the
// environment through package store.
package app

import (
	"strings"

	"example.com/isolate/calc"
	"example.com/isolate/store"
)

// Admit decides whether n fits the configured limit, at opening hours.
func Admit(n int) string {
	limit, err := store.Limit()
	if err != nil {
		return "no limit"
	}
	if h := store.Hour(); h < 8 || h >= 18 {
		return "closed"
	}
	if calc.Clamp(n, 0, 100) > limit {
		return "over"
	}
	return strings.ToUpper("ok")
}

// Price quotes n items; the service may raise the price.
func Price(n int) string {
	q := &store.Quote{Price: n}
	c := store.Dial("127.0.0.1:1")
	if err := c.Fill(q); err != nil {
		return "unavailable"
	}
	if q.Price > 2*n {
		return "expensive: " + c.Describe(q)
	}
	return "fine"
}
