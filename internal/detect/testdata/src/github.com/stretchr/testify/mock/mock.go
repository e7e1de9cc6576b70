// Package mock is a minimal stand-in for github.com/stretchr/testify/mock.
package mock

// TestingT is the part of *testing.T mocks use.
type TestingT interface {
	Errorf(format string, args ...any)
	FailNow()
}

// Mock is embedded by mock types.
type Mock struct {
	calls []string
}

// On starts an expectation.
func (m *Mock) On(method string, args ...any) *Call { return &Call{Parent: m} }

// Called records a call and returns the configured results.
func (m *Mock) Called(args ...any) Arguments { return nil }

// AssertExpectations checks the expectations.
func (m *Mock) AssertExpectations(t TestingT) bool { return true }

// AssertNumberOfCalls checks a call count.
func (m *Mock) AssertNumberOfCalls(t TestingT, method string, n int) bool { return true }

// AssertNotCalled checks that a method was not called.
func (m *Mock) AssertNotCalled(t TestingT, method string, args ...any) bool { return true }

// Test sets the test.
func (m *Mock) Test(t TestingT) {}

// Call is an expectation.
type Call struct {
	Parent *Mock
}

// Return sets the results.
func (c *Call) Return(rets ...any) *Call { return c }

// Once expects one call.
func (c *Call) Once() *Call { return c }

// Run sets a function to run.
func (c *Call) Run(fn func(args Arguments)) *Call { return c }

// Arguments are the arguments or results of a call.
type Arguments []any

// Get returns argument i.
func (a Arguments) Get(i int) any { return a[i] }

// Error returns argument i as an error.
func (a Arguments) Error(i int) error {
	err, _ := a[i].(error)
	return err
}

// String returns argument i as a string.
func (a Arguments) String(i int) string {
	s, _ := a[i].(string)
	return s
}

// Anything matches any argument.
const Anything = "mock.Anything"

// AnythingOfType matches arguments of a type.
func AnythingOfType(t string) string { return t }
