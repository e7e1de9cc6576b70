package analyzer_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/dowse-go/dowse/internal/detect/analyzer"
)

// The fixtures are the detector's scenarios (real Go in a GOPATH tree at
// ../testdata/src) whose want comments mark the intraprocedural mock
// invocations.
func TestAnalyzer(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, dir, analyzer.Analyzer,
		"example.com/scenarios/gomock",
		"example.com/scenarios/testify",
		"example.com/scenarios/generated",
		"example.com/scenarios/containers",
		"example.com/scenarios/interproc",
		"example.com/scenarios/nomocks",
	)
}
