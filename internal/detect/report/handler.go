// Package report writes the results of the mock detector: a text report
// per package (text.go) or one JSON object per line (json.go). Both are
// detect.Handlers, fed as results stream out of the analysis.
package report
