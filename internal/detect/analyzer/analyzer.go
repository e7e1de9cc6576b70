// Package analyzer exposes the mock detector as a go/analysis Analyzer,
// so that it runs under go vet -vettool, in gopls and in other drivers.
// It reports every call in a test file whose receiver may be a mock
// object. The analysis is the detector's intraprocedural mode over one
// package at a time.
package analyzer

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"

	"github.com/dowse-go/dowse/internal/detect"
	"github.com/dowse-go/dowse/internal/detect/sources"
)

// Analyzer reports mock invocations in test files.
var Analyzer = &analysis.Analyzer{
	Name:     "mockcalls",
	Doc:      "report calls in test code whose receiver may be a mock object\n\nThe mock sources are the mock types of gomock, testify/mock, mockery, moq,\ncounterfeiter and minimock, recognised by generator header and type shape,\nplus those given with -mock-type, -mock-func or -config.",
	URL:      "https://pkg.go.dev/github.com/dowse-go/dowse/internal/detect/analyzer",
	Requires: []*analysis.Analyzer{buildssa.Analyzer},
	Run:      run,
}

var (
	mockTypes  listFlag
	mockFuncs  listFlag
	configFile string
)

func init() {
	Analyzer.Flags.Var(&mockTypes, "mock-type", "`pkgpath.Type` whose values are mocks (repeatable)")
	Analyzer.Flags.Var(&mockFuncs, "mock-func", "`pkgpath.Func` whose results are mocks (repeatable)")
	Analyzer.Flags.StringVar(&configFile, "config", "", "JSON `file` of extra mock sources")
}

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	if err := sources.CheckQualified(s); err != nil {
		return err
	}
	*l = append(*l, s)
	return nil
}

func run(pass *analysis.Pass) (any, error) {
	hasTests := false
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.FileStart).Name(), "_test.go") {
			hasTests = true
			break
		}
	}
	if !hasTests {
		return nil, nil
	}
	cfg := &sources.Config{}
	if configFile != "" {
		c, err := sources.ReadConfig(configFile)
		if err != nil {
			return nil, err
		}
		cfg = c
	}
	cfg.MockTypes = append(cfg.MockTypes, mockTypes...)
	cfg.MockFuncs = append(cfg.MockFuncs, mockFuncs...)

	ssaInfo := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	sites := detect.AnalyzePackage(&detect.Package{
		Fset:  pass.Fset,
		Files: pass.Files,
		Info:  pass.TypesInfo,
		Path:  pass.Pkg.Path(),
		Funcs: ssaInfo.SrcFuncs,
		Prog:  ssaInfo.Pkg.Prog,
	}, cfg)
	for _, s := range sites {
		if s.Mock {
			pass.Reportf(s.Pos(), "mock invocation: %s", short(s.Callee))
		}
	}
	return nil, nil
}

// short drops the import path before the package name of a callee.
func short(callee string) string {
	if i := strings.LastIndex(callee, "/"); i >= 0 {
		return callee[i+1:]
	}
	return fmt.Sprint(callee)
}
