package solver

import (
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dowse-go/dowse/internal/sym"
)

// corpus is a recorded corpus of testdata/corpus: queries of a real
// exploration (bench/solverbench records them), a sample of them for the
// larger ones, with the answers the recording chain gave.
type corpus struct {
	name     string
	queries  []Query
	recorded []Status
}

// readCorpora reads every testdata/corpus/*.gob.gz.
func readCorpora(t *testing.T) []corpus {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.gob.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in testdata/corpus (%v)", err)
	}
	var out []corpus
	for _, f := range files {
		rd, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(rd)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		qs, sts, err := ReadCorpus(zr, sym.NewContext())
		rd.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, corpus{strings.TrimSuffix(filepath.Base(f), ".gob.gz"), qs, sts})
	}
	return out
}

// replay answers a corpus's queries in their order with a fresh chain.
func replay(t *testing.T, cfg Config, c corpus) []Result {
	ch := New(cfg)
	defer ch.Close()
	out := make([]Result, len(c.queries))
	for i, q := range c.queries {
		r, err := ch.Solve(context.Background(), q)
		if err != nil {
			t.Fatalf("%s query %d: %v", c.name, i, err)
		}
		out[i] = r
	}
	return out
}

// layerTimeout bounds each query of the replays: without a layer, a
// query may take the core longer than the chain would, which the test
// accepts as a time-out.
const layerTimeout = 500 * time.Millisecond

// TestLayersOffKeepAnswers replays the recorded corpora through the full
// chain, checking every Sat model and every Unsat answer (ValidateAll),
// then once more with each layer or stage disabled, checking every Sat
// model. Disabling a layer must never turn Sat into Unsat or back, and
// may turn an answer into Unknown only by a time-out: a layer makes
// answers come faster, nothing else. An Unknown of the full chain may
// become an answer.
func TestLayersOffKeepAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("replays every corpus once per layer")
	}
	corpora := readCorpora(t)
	full := make([][]Result, len(corpora))
	for i, c := range corpora {
		start := time.Now()
		full[i] = replay(t, Config{Options: Options{Timeout: layerTimeout}, Validate: ValidateAll}, c)
		for j, r := range full[i] {
			if want := c.recorded[j]; r.Status != Unknown && want != Unknown && r.Status != want {
				t.Errorf("%s query %d: %s, recorded %s", c.name, j, r.Status, want)
			}
		}
		t.Logf("%s: %d queries with every layer, validated, %v", c.name, len(c.queries), time.Since(start).Round(time.Millisecond))
	}
	for _, l := range Layers {
		t.Run(l.Name, func(t *testing.T) {
			for i, c := range corpora {
				start := time.Now()
				got := replay(t, Config{Options: Options{Timeout: layerTimeout}, Disable: []string{l.Name}, Validate: ValidateSat}, c)
				changed := 0
				for j, r := range got {
					want := full[i][j]
					switch {
					case r.Status == want.Status:
						continue
					case r.Status == Unknown && !r.TimedOut:
						t.Errorf("%s query %d: unknown (%s), %s with every layer", c.name, j, r.Why, want.Status)
					case r.Status != Unknown && want.Status != Unknown:
						t.Errorf("%s query %d: %s, %s with every layer", c.name, j, r.Status, want.Status)
					}
					changed++
				}
				t.Logf("%s: %d queries, %d answers became or stopped being unknown, %v", c.name, len(got), changed, time.Since(start).Round(time.Millisecond))
			}
		})
	}
}
