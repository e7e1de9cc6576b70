// Command fuzzcmp compares dowse with Go's native fuzzer on the magic-value
// suite (testdata/magic): for each fuzz target, both tools get the same time
// budget on a fresh copy of the module; the table reports whether each
// reached the magic branch, the wall time it took (build included, for
// both), and the statement coverage of the function under test reached by
// what each left behind (dowse's generated corpus, the fuzzer's corpus).
//
// Usage (from the repository root):
//
//	go run ./bench/fuzzcmp [-time 10s] [-targets FuzzSeed,...]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/dowse-go/dowse/bench/internal/modcopy"
)

// targets maps each fuzz target of testdata/magic to the function it tests.
var targets = []struct{ fuzz, fn string }{
	{"FuzzSeed", "Seed"},
	{"FuzzOverflows", "Overflows"},
	{"FuzzWord", "Word"},
	{"FuzzHeader", "Header"},
	{"FuzzChecksum", "Checksum"},
}

func main() {
	budget := flag.Duration("time", 10*time.Second, "time budget per target and tool")
	only := flag.String("targets", "", "comma-separated fuzz targets (default: all)")
	flag.Parse()
	log.SetFlags(0)

	root, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	src := filepath.Join(root, "testdata", "magic")
	work, dowse, err := modcopy.Workspace("fuzzcmp")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)

	// dowse explores all targets in one run (one build); each target has
	// the budget as its -max-time.
	dowseDir := filepath.Join(work, "dowse-run")
	dowseWall, dowseRes := runDowse(dowse, src, dowseDir, *budget)

	fmt.Printf("budget %s per target and tool; times are exploration/fuzzing time to the magic branch (or the budget), without building\n", *budget)
	fmt.Printf("dowse: one run over all targets took %.2fs wall, build included\n\n", dowseWall.Seconds())
	fmt.Println("| target | dowse found | dowse time | dowse coverage | fuzzer found | fuzzer time | fuzzer coverage |")
	fmt.Println("|---|---|---:|---:|---|---:|---:|")
	for _, tg := range targets {
		if *only != "" && !strings.Contains(","+*only+",", ","+tg.fuzz+",") {
			continue
		}
		d := dowseRes[tg.fuzz]
		d.cover = coverage(dowseDir, tg.fn, []string{"DOWSE_REPRODUCE=1"})
		f := runFuzzer(src, filepath.Join(work, "fuzz-"+tg.fuzz), tg.fuzz, tg.fn, *budget)
		fmt.Printf("| %s | %v | %.3fs | %s | %v | %.3fs | %s |\n", tg.fuzz, d.found, d.time.Seconds(), d.cover, f.found, f.time.Seconds(), f.cover)
	}
}

type outcome struct {
	found bool
	time  time.Duration
	cover string
}

func runDowse(dowse, src, dir string, budget time.Duration) (time.Duration, map[string]outcome) {
	copyDir(src, dir)
	start := time.Now()
	// Both tools start cold: the fuzzer's cache corpus is removed before it
	// runs, and dowse does not read corpora.
	cmd := exec.Command(dowse, "gen", "-json", "-corpus=false", "-max-time", budget.String(), ".")
	cmd.Dir = dir
	out, _ := cmd.Output() // exit status 3: failures found
	wall := time.Since(start)
	res := map[string]outcome{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var s struct {
			Target   string            `json:"target"`
			Failures []json.RawMessage `json:"failures"`
			Elapsed  float64           `json:"elapsed_seconds"`
		}
		if err := dec.Decode(&s); err != nil {
			break
		}
		res[s.Target] = outcome{found: len(s.Failures) > 0, time: time.Duration(s.Elapsed * float64(time.Second))}
	}
	return wall, res
}

func runFuzzer(src, dir, target, fn string, budget time.Duration) outcome {
	copyDir(src, dir)
	cache := strings.TrimSpace(goEnv("GOCACHE"))
	corpus := filepath.Join(cache, "fuzz", "example.com", "magic", target)
	os.RemoveAll(corpus)
	cmd := exec.Command("go", "test", "-run", "^$", "-fuzz", "^"+target+"$", "-fuzztime", budget.String(), ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	found := err != nil && bytes.Contains(out, []byte("Failing input written"))
	// "--- FAIL: FuzzX (0.22s)" is the fuzzing time to the failure.
	took := budget
	if m := failTime.FindSubmatch(out); found && m != nil {
		if d, err := time.ParseDuration(string(m[1]) + "s"); err == nil {
			took = d
		}
	}
	// What the fuzzer found interesting lives in its cache; bring it in.
	if entries, err := os.ReadDir(corpus); err == nil {
		dst := filepath.Join(dir, "testdata", "fuzz", target)
		os.MkdirAll(dst, 0o755)
		for _, e := range entries {
			if data, err := os.ReadFile(filepath.Join(corpus, e.Name())); err == nil {
				os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644)
			}
		}
	}
	os.RemoveAll(corpus)
	return outcome{found: found, time: took, cover: coverage(dir, fn, nil)}
}

var failTime = regexp.MustCompile(`--- FAIL: Fuzz\w+ \(([0-9.]+)s\)`)

// coverage runs the module's tests with a cover profile and returns the
// statement coverage of function fn.
func coverage(dir, fn string, env []string) string {
	prof := filepath.Join(dir, "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-coverprofile", prof, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Run() // failing inputs fail the tests; the profile is still written
	cov := exec.Command("go", "tool", "cover", "-func", prof)
	cov.Dir = dir
	out, err := cov.Output()
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == fn {
			return f[2]
		}
	}
	return "?"
}

func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		log.Fatal(err)
	}
	return string(out)
}

func copyDir(src, dst string) {
	if err := modcopy.CopyWritable(src, dst); err != nil {
		log.Fatal(err)
	}
}
