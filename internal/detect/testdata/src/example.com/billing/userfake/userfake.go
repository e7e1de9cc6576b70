// Package userfake holds hand-written test doubles of no known shape;
// the detector finds them only when configured (-mock-type, -mock-func).
package userfake

import "example.com/billing"

// DB is a hand-written fake database.
type DB struct{ Rows map[string]int64 }

// Balance returns a canned balance.
func (d *DB) Balance(account string) (int64, error) { return d.Rows[account], nil }

// Debit does nothing.
func (d *DB) Debit(account string, amount int64) error { return nil }

// Seed adds a row.
func (d *DB) Seed(account string, n int64) { d.Rows[account] = n }

// NewStub returns a stub Store behind the interface.
func NewStub() billing.Store { return &DB{Rows: map[string]int64{}} }
