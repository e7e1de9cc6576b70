// Package minimock is a minimal stand-in for github.com/gojuno/minimock/v3.
package minimock

// Tester is the part of *testing.T mocks use.
type Tester interface {
	Fatalf(format string, args ...any)
	Helper()
	Cleanup(func())
}

// Mocker is a mock a controller finishes.
type Mocker interface {
	MinimockFinish()
}

// Controller finishes the mocks registered with it.
type Controller struct {
	Tester
	mocks []Mocker
}

// NewController returns a controller for t.
func NewController(t Tester) *Controller { return &Controller{Tester: t} }

// RegisterMocker registers a mock.
func (c *Controller) RegisterMocker(m Mocker) { c.mocks = append(c.mocks, m) }
