package detect

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/testenv"
)

// collector is a Handler that keeps everything.
type collector struct {
	errors    []*PackageError
	sites     []*Site
	summaries []*Summary
}

func (c *collector) PackageError(e *PackageError) error { c.errors = append(c.errors, e); return nil }
func (c *collector) Site(s *Site) error                 { c.sites = append(c.sites, s); return nil }
func (c *collector) Summary(s *Summary) error           { c.summaries = append(c.summaries, s); return nil }

// benchDir locates the shared benchmark corpus: ../shared/bench from the
// directory holding the repository's go.mod.
func benchDir(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			testenv.Missing(t, "repository root not found")
		}
		dir = parent
	}
	bench := filepath.Join(dir, "..", "shared", "bench")
	if _, err := os.Stat(filepath.Join(bench, "detect", "GROUND_TRUTH.tsv")); err != nil {
		testenv.Missing(t, "benchmark corpus not found at %s", bench)
	}
	return bench
}

type truth struct {
	key  string // file:line:column
	mock bool
	note string
}

func readTruth(t *testing.T, name string) []truth {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []truth
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 {
			continue
		}
		if _, err := strconv.Atoi(cols[1]); err != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		out = append(out, truth{key: cols[0] + ":" + cols[1] + ":" + cols[2], mock: cols[4] == "1", note: cols[3] + " — " + cols[5]})
	}
	return out
}

// scores compares the detector's sites with the ground truth.
type scores struct {
	tp, fp, fn, tn int
	misses         []string // ground-truth mocks reported as real
	falseAlarms    []string
	missing        []string // ground-truth sites without a reported site
	extra          []string // reported sites the ground truth does not list
}

func (s scores) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s scores) recall() float64    { return ratio(s.tp, s.tp+s.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func score(gt []truth, sites []*Site) scores {
	got := map[string]*Site{}
	for _, s := range sites {
		if strings.HasPrefix(s.File, "detect/") {
			got[fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)] = s
		}
	}
	var sc scores
	seen := map[string]bool{}
	for _, g := range gt {
		seen[g.key] = true
		s, ok := got[g.key]
		if !ok {
			sc.missing = append(sc.missing, g.key+" "+g.note)
		}
		mock := ok && s.Mock
		switch {
		case g.mock && mock:
			sc.tp++
		case g.mock:
			sc.fn++
			sc.misses = append(sc.misses, g.key+" "+g.note)
		case mock:
			sc.fp++
			sc.falseAlarms = append(sc.falseAlarms, g.key+" "+g.note)
		default:
			sc.tn++
		}
	}
	for k, s := range got {
		if !seen[k] {
			sc.extra = append(sc.extra, k+" "+s.Callee)
		}
	}
	sort.Strings(sc.extra)
	return sc
}

// TestGroundTruth measures precision and recall of the mock bit against
// the labelled benchmark, in both modes.
func TestGroundTruth(t *testing.T) {
	bench := benchDir(t)
	gt := readTruth(t, filepath.Join(bench, "detect", "GROUND_TRUTH.tsv"))
	results := map[bool]scores{}
	for _, inter := range []bool{false, true} {
		opts := Options{Interprocedural: inter}
		prog, err := Load(LoadConfig{Dir: bench, Options: opts}, "./detect/...")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range prog.Errors {
			t.Errorf("load error in %s: %v", e.Package, e.Errors)
		}
		var c collector
		if _, err := prog.Analyze(nil, opts, &c); err != nil {
			t.Fatal(err)
		}
		sc := score(gt, c.sites)
		results[inter] = sc
		mode := map[bool]string{false: "intraprocedural", true: "interprocedural"}[inter]
		t.Logf("%s: %d sites, TP %d FP %d FN %d TN %d, precision %.3f recall %.3f",
			mode, len(gt), sc.tp, sc.fp, sc.fn, sc.tn, sc.precision(), sc.recall())
		for _, m := range sc.misses {
			t.Logf("  %s miss: %s", mode, m)
		}
		for _, m := range sc.falseAlarms {
			t.Logf("  %s false alarm: %s", mode, m)
		}
		for _, m := range sc.missing {
			t.Errorf("%s: ground-truth site not reported: %s", mode, m)
		}
		for _, m := range sc.extra {
			t.Errorf("%s: reported site not in the ground truth: %s", mode, m)
		}
	}
	inter, intra := results[true], results[false]
	if p, r := inter.precision(), inter.recall(); p < 0.97 || r < 0.97 {
		t.Errorf("interprocedural precision %.3f recall %.3f, want both >= 0.97", p, r)
	}
	// Every site the intraprocedural mode misses is either missed by the
	// interprocedural mode too or found by it (an interprocedural case);
	// the intraprocedural mode must not find what the other misses.
	interMiss := map[string]bool{}
	for _, m := range inter.misses {
		interMiss[m] = true
	}
	intraMiss := map[string]bool{}
	var interCases []string
	for _, m := range intra.misses {
		intraMiss[m] = true
		if !interMiss[m] {
			interCases = append(interCases, m)
		}
	}
	for m := range interMiss {
		if !intraMiss[m] {
			t.Errorf("found intraprocedurally but missed interprocedurally: %s", m)
		}
	}
	t.Logf("interprocedural cases (missed only intraprocedurally): %d %v", len(interCases), interCases)
}
