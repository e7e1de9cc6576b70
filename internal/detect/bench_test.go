package detect

import (
	"testing"
)

type discard struct{ sum Summary }

func (d *discard) PackageError(*PackageError) error { return nil }
func (d *discard) Site(*Site) error                 { return nil }
func (d *discard) Summary(s *Summary) error         { d.sum.Add(s); return nil }

// BenchmarkDetect times the detection step alone (load and SSA excluded)
// on the labelled corpus, in both modes, and reports it per 1,000
// non-blank lines of test code.
//
//	go test -run '^$' -bench Detect ./internal/detect
func BenchmarkDetect(b *testing.B) {
	bench := benchDir(b)
	opts := Options{Interprocedural: true}
	prog, err := Load(LoadConfig{Dir: bench, Options: opts}, "./...")
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		opts Options
	}{{"intra", Options{}}, {"inter", opts}} {
		b.Run(mode.name, func(b *testing.B) {
			var d discard
			for b.Loop() {
				d = discard{}
				if _, err := prog.Analyze(nil, mode.opts, &d); err != nil {
					b.Fatal(err)
				}
			}
			if d.sum.TestLOC > 0 {
				perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
				b.ReportMetric(perOp/1e6/(float64(d.sum.TestLOC)/1000), "ms/test-kLOC")
			}
		})
	}
}
