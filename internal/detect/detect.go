// Package detect finds the calls in Go test code whose receiver may be a
// mock object, after MockDetector: a forward may-analysis over go/ssa from
// the mock sources of package sources (mock types of gomock, testify,
// mockery, moq, counterfeiter, minimock and user-declared ones) through
// copies, conversions, type assertions, slices, arrays, maps, channels,
// struct fields, closures and, in the interprocedural mode, calls between
// test functions and their helpers over a VTA call graph.
//
// Results stream through a Handler: one Site per call site in a test file,
// then one Summary per package; load errors arrive as PackageErrors.
package detect

import (
	"go/token"
	"go/types"
)

// Options selects the analysis.
type Options struct {
	// Interprocedural propagates mocks between test functions and their
	// helpers along a VTA call graph (arguments to parameters, results to
	// calls). Without it, mockness stops at function boundaries, except
	// that closures see the variables they capture.
	Interprocedural bool
	// IntoProduction also propagates mocks through the module's
	// production code reachable from tests (its call sites are never
	// reported; this only matters for mocks that come back out of it).
	IntoProduction bool
}

// A Site is one call site in a test file.
type Site struct {
	Package string `json:"package"`
	// File is relative to the module root (or the loader's directory
	// outside modules), with forward slashes.
	File string `json:"file"`
	Line int    `json:"line"`
	// Column is the 1-based byte column of the called function or method
	// name (for x.f(), the position of f).
	Column int `json:"column"`
	// Callee is the called function as pkgpath.Func or
	// pkgpath.Type.Method (the type declaring the method), or the source
	// text of the called expression for calls of function values.
	Callee string `json:"callee"`
	// Method reports a method call (a call with a receiver).
	Method bool `json:"method"`
	// Mock reports that the receiver may be a mock object.
	Mock bool `json:"mock"`
	// Test is the enclosing top-level function (Type.Method for methods).
	Test string `json:"test"`
	// Reason says why a site could not be resolved (then Mock is false).
	Reason string `json:"reason,omitempty"`

	callee *types.Func // resolved callee, if static
	pos    token.Pos
}

// Pos returns the position of the called name (valid only with the file
// set of the analysis that produced the site).
func (s *Site) Pos() token.Pos { return s.pos }

// FieldOrigins counts the struct fields of test code that hold mocks, by
// where the mock comes from; a field may count under several origins.
type FieldOrigins struct {
	// Type: fields declared with a mock type (the Go counterpart of an
	// @Mock annotation).
	Type int `json:"type"`
	// Constructor: fields assigned a mock in a fixture constructor (a
	// function returning the struct or a pointer to it).
	Constructor int `json:"constructor"`
	// Setup: fields assigned a mock in SetupTest, SetupSuite,
	// SetupSubTest, BeforeTest or TestMain (and the closures within).
	Setup int `json:"setup"`
	// Other: fields assigned a mock elsewhere, mostly composite literals
	// such as the rows of table-driven tests.
	Other int `json:"other"`
}

// A Summary describes the test code of one package.
type Summary struct {
	Package string `json:"package"`
	// TestFiles is the number of _test.go files analysed.
	TestFiles int `json:"test_files"`
	// TestLOC counts the non-blank lines of those files.
	TestLOC int `json:"test_loc"`
	// Tests counts test-related functions: Test, Benchmark, Fuzz and
	// Example functions, TestMain, and the Test*, Setup*, TearDown*,
	// BeforeTest and AfterTest methods of suites.
	Tests int `json:"tests"`
	// TestsWithMocks counts those whose code (closures included) holds a
	// value that may be a mock.
	TestsWithMocks int `json:"tests_with_mocks"`
	// TestsWithMockSlices counts those holding a slice or array that may
	// contain mocks; TestsWithMockMaps, a map or channel.
	TestsWithMockSlices int `json:"tests_with_mock_slices"`
	TestsWithMockMaps   int `json:"tests_with_mock_maps"`
	// MockObjects counts mock creation sites in test files: allocations
	// of mock types, calls of mock constructors and configured sources.
	MockObjects int          `json:"mock_objects"`
	FieldMocks  FieldOrigins `json:"field_mocks"`
	// Sites counts call sites; MethodCalls those with a receiver, split
	// into MockInvocations and RealInvocations; Unresolved sites are
	// counted as real.
	Sites           int `json:"sites"`
	MethodCalls     int `json:"method_calls"`
	MockInvocations int `json:"mock_invocations"`
	RealInvocations int `json:"real_invocations"`
	Unresolved      int `json:"unresolved"`
	// Focal maps each test to its focal-method candidates: the callees
	// of its real method calls that are production code of the module.
	Focal map[string][]string `json:"focal,omitempty"`
}

// A PackageError reports a package that could not be analysed.
type PackageError struct {
	Package string   `json:"package"`
	Errors  []string `json:"errors"`
}

// A Handler receives results as they are produced.
type Handler interface {
	PackageError(*PackageError) error
	Site(*Site) error
	Summary(*Summary) error
}
