// Package suite is a minimal stand-in for github.com/stretchr/testify/suite.
package suite

import "testing"

// Suite is embedded by test suites.
type Suite struct {
	t *testing.T
}

// T returns the current test.
func (s *Suite) T() *testing.T { return s.t }

// SetT sets the current test.
func (s *Suite) SetT(t *testing.T) { s.t = t }

// NoError fails on a non-nil error.
func (s *Suite) NoError(err error) bool { return err == nil }

// Equal compares two values.
func (s *Suite) Equal(want, got any) bool { return want == got }

// TestingSuite is a suite.
type TestingSuite interface {
	T() *testing.T
	SetT(*testing.T)
}

// Run runs the suite's Test methods.
func Run(t *testing.T, s TestingSuite) { s.SetT(t) }
