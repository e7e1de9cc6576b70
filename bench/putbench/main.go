// Command putbench runs dowse gen on a copy of the benchmark module and
// compares, for every PUT, the paths dowse explored with the brute-force
// path counts of its EXPECTED.md, and the statement coverage that
// `go test -cover` reaches with the generated tests with the reachable
// coverage listed there. It prints a Markdown table.
//
// Usage (from the repository root, with ../shared/bench beside it):
//
//	go run ./bench/putbench [-bench ../shared/bench] [-max-len 10] [-max-time 2m] [-max-runs n] [-mutate=false] [-run regexp] [pkgs...]
package main

import (
	"bufio"
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
)

func main() {
	benchDir := flag.String("bench", "../shared/bench", "benchmark module")
	maxLen := flag.Int("max-len", 10, "dowse gen -max-len")
	maxTime := flag.String("max-time", "2m", "dowse gen -max-time")
	workers := flag.Int("workers", 0, "dowse gen -workers (0: default)")
	maxRuns := flag.Int("max-runs", 0, "dowse gen -max-runs (0: default); a run bound, unlike a time bound, explores the same on a loaded machine")
	mutate := flag.Bool("mutate", true, "dowse gen -mutate")
	run := flag.String("run", "", "dowse gen -run (regexp of target names)")
	flag.Parse()
	log.SetFlags(0)
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"put/triangle", "put/quicksort", "put/linkedlist"}
	}
	src, err := filepath.Abs(*benchDir)
	if err != nil {
		log.Fatal(err)
	}
	expected, cover := parseExpected(filepath.Join(src, "EXPECTED.md"))

	tmp, err := os.MkdirTemp("", "putbench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	mod := filepath.Join(tmp, "bench")
	if err := os.CopyFS(mod, os.DirFS(src)); err != nil {
		log.Fatal(err)
	}
	dowse := filepath.Join(tmp, "dowse")
	if out, err := exec.Command("go", "build", "-o", dowse, "./cmd/dowse").CombinedOutput(); err != nil {
		log.Fatalf("build dowse: %v\n%s", err, out)
	}
	args := []string{"gen", "-json", "-max-len", fmt.Sprint(*maxLen), "-max-time", *maxTime}
	if *workers > 0 {
		args = append(args, "-workers", fmt.Sprint(*workers))
	}
	if *maxRuns > 0 {
		args = append(args, "-max-runs", fmt.Sprint(*maxRuns))
	}
	if !*mutate {
		args = append(args, "-mutate=false")
	}
	if *run != "" {
		args = append(args, "-run", *run)
	}
	for _, p := range pkgs {
		args = append(args, "./"+p)
	}
	cmd := exec.Command(dowse, args...)
	cmd.Dir = mod
	cmd.Stderr = os.Stderr
	out, _ := cmd.Output() // exit status 3 when failures were found

	fmt.Printf("dowse gen -max-len %d on a copy of the benchmark module\n\n", *maxLen)
	fmt.Println("| package | PUT | paths (EXPECTED) | paths (dowse) | exhaustive | stop | runs | failures | time s | solver share |")
	fmt.Println("|---|---|---:|---:|---|---|---:|---:|---:|---:|")
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var s struct {
			Package    string            `json:"package"`
			Target     string            `json:"target"`
			Runs       int               `json:"runs"`
			Paths      int               `json:"paths"`
			Failures   []json.RawMessage `json:"failures"`
			Stop       string            `json:"stop_reason"`
			Exhaustive bool              `json:"exhaustive"`
			Elapsed    float64           `json:"elapsed_seconds"`
			Solver     float64           `json:"solver_seconds"`
		}
		if err := dec.Decode(&s); err != nil {
			break
		}
		pkg := strings.TrimPrefix(s.Package, "benchcorpus/")
		want := expected[pkg+" "+s.Target]
		share := 0.0
		if s.Elapsed > 0 {
			share = 100 * s.Solver / s.Elapsed
		}
		fmt.Printf("| %s | %s | %s | %d | %v | %s | %d | %d | %.2f | %.0f%% |\n",
			pkg, s.Target, want, s.Paths, s.Exhaustive, s.Stop, s.Runs, len(s.Failures), s.Elapsed, share)
	}

	fmt.Println("\n| package | statement coverage, generated tests (go test -cover) | reachable (EXPECTED) |")
	fmt.Println("|---|---:|---:|")
	for _, p := range pkgs {
		c := exec.Command("go", "test", "-count=1", "-cover", "./"+p)
		c.Dir = mod
		o, err := c.CombinedOutput()
		got := "FAIL"
		if m := regexp.MustCompile(`coverage: ([0-9.]+%)`).FindSubmatch(o); m != nil && err == nil {
			got = string(m[1])
		} else if err != nil {
			log.Printf("go test %s: %v\n%s", p, err, o)
		}
		fmt.Printf("| %s | %s | %s |\n", p, got, cover[p])
	}
}

// parseExpected reads the put/* table of EXPECTED.md: the brute-force path
// count of each target and the package coverage.
func parseExpected(path string) (paths, cover map[string]string) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	paths, cover = map[string]string{}, map[string]string{}
	pkg := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 9 {
			continue
		}
		for i := range cols {
			cols[i] = strings.TrimSpace(cols[i])
		}
		if p := cols[1]; strings.HasPrefix(p, "put/") || strings.HasPrefix(p, "mocks/") {
			pkg = strings.Fields(p)[0]
			if cols[7] != "" {
				cover[pkg] = cols[7]
			}
		} else if p != "" {
			continue
		}
		target := strings.Fields(cols[2] + " x")[0]
		key := pkg + " " + target
		if _, ok := paths[key]; !ok && pkg != "" {
			paths[key] = cols[4]
		}
	}
	return paths, cover
}
