// Command dowse-vet runs the mock detector's analyzer, reporting the calls
// in test code whose receiver may be a mock object. Use it alone
// (dowse-vet ./...) or as a vet tool:
//
//	go vet -vettool=$(command -v dowse-vet) ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/dowse-go/dowse/internal/detect/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
