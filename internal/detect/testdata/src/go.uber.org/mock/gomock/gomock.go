// Package gomock is a minimal stand-in for go.uber.org/mock/gomock, with
// the API the detector's test fixtures use.
package gomock

import "reflect"

// TestReporter is what a controller reports failures to.
type TestReporter interface {
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// TestHelper is a TestReporter with Helper.
type TestHelper interface {
	TestReporter
	Helper()
}

// Controller tracks expectations.
type Controller struct {
	T TestHelper
}

// NewController returns a controller.
func NewController(t TestReporter) *Controller { return &Controller{} }

// Finish checks the expectations.
func (c *Controller) Finish() {}

// Call records a call on a mock.
func (c *Controller) Call(receiver any, method string, args ...any) []any { return nil }

// RecordCallWithMethodType records an expectation.
func (c *Controller) RecordCallWithMethodType(receiver any, method string, t reflect.Type, args ...any) *Call {
	return &Call{}
}

// Call is an expectation.
type Call struct{}

// Return sets the results.
func (c *Call) Return(rets ...any) *Call { return c }

// Times sets the expected count.
func (c *Call) Times(n int) *Call { return c }

// AnyTimes allows any count.
func (c *Call) AnyTimes() *Call { return c }

// Any matches anything.
func Any() any { return nil }
