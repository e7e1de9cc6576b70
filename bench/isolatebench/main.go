// Command isolatebench measures the isolation sandbox (docs/isolate.md) in
// the manner of Tables 8 and 9 of "Automated Isolation for White-box
// Test Generation": on the benchmark module's
// isolate/* units and on packages of real modules that touch the file
// system, the clock, the network or the environment, it runs dowse gen
// without the sandbox (-isolate=off) and with it, and reports the
// statement coverage of the generated tests (go test -cover without,
// dowse test -cover with, which runs the isolated rows too), the
// externals found and isolated, and the times.
//
// Run from the repository root: go run ./bench/isolatebench
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
	"time"

	"github.com/dowse-go/dowse/bench/internal/modcopy"
)

// unit is a package to measure: a module (module@version from the module
// cache, or "bench" for ../shared/bench) and the package's directory.
type unit struct {
	module, dir string
	touches     string // what it reaches, for the table
	puts        bool   // explore its PUTs (the benchmark) rather than automatic targets
}

var units = []unit{
	{"bench", "isolate/transfer", "file (database), network", true},
	{"bench", "isolate/uut", "network", true},
	{"github.com/google/uuid@v1.6.0", ".", "clock, crypto/rand, network interfaces", false},
	{"golang.org/x/tools@v0.52.0", "cover", "file system", false},
	{"golang.org/x/net@v0.62.0", "http/httpproxy", "environment", false},
	{"golang.org/x/mod@v0.42.0", "zip", "file system", false},
}

func main() {
	maxLen := flag.Int("max-len", 6, "dowse gen -max-len")
	maxTime := flag.String("max-time", "5s", "dowse gen -max-time per target")
	only := flag.String("packages", "", "comma-separated substrings: run only the packages whose path contains one")
	flag.Parse()
	work, dowse, err := modcopy.Workspace("isolatebench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	fmt.Printf("dowse gen -max-len %d -max-time %s; coverage of the generated tests (the packages' own tests removed, except for the benchmark's PUT files)\n\n", *maxLen, *maxTime)
	fmt.Println("| package | reaches | externals called / isolated | isolated call sites | coverage without isolation | coverage with isolation | paths without / with | isolated rows | analysis s | build s | generation s |")
	fmt.Println("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
	for i, u := range units {
		name := u.module + "/" + u.dir
		if *only != "" && !containsAny(name, *only) {
			continue
		}
		src, err := source(u.module)
		if err != nil {
			log.Fatal(err)
		}
		var rows [2]result
		for m, mode := range []string{"off", "auto"} {
			mod := filepath.Join(work, fmt.Sprintf("%d-%s", i, mode))
			if err := modcopy.CopyWritable(src, mod); err != nil {
				log.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(mod, "go.mod")); err != nil {
				path, _, _ := strings.Cut(u.module, "@")
				os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+path+"\n\ngo 1.20\n"), 0o644)
			}
			pkg := "./" + u.dir
			if !u.puts {
				tests, _ := filepath.Glob(filepath.Join(mod, u.dir, "*_test.go"))
				for _, t := range tests {
					os.Remove(t)
				}
			}
			gen := exec.Command(dowse, "gen", "-json", "-cache=false", "-isolate="+mode, "-max-len", fmt.Sprint(*maxLen), "-max-time", *maxTime, pkg)
			gen.Dir = mod
			gen.Env = append(os.Environ(), "TMPDIR="+work)
			began := time.Now()
			out, _ := gen.Output()
			rows[m] = summarize(out)
			rows[m].took = time.Since(began)
			if mode == "off" {
				rows[m].cov = coverage(mod, "go", "test", "-count=1", "-cover", pkg)
			} else {
				rows[m].cov = coverage(mod, dowse, "test", "-count=1", "-cover", pkg)
			}
		}
		version := "(../shared/bench)"
		if m, v, ok := strings.Cut(u.module, "@"); ok {
			name, version = m, v
			if u.dir != "." {
				name += "/" + u.dir
			}
		} else {
			name = u.dir
		}
		w := rows[1]
		fmt.Printf("| %s %s | %s | %d / %d | %d | %s | %s | %d / %d | %d | %.2f | %.2f | %.1f |\n", name, version, u.touches,
			w.externals, w.isolated, w.sites, rows[0].cov, w.cov, rows[0].paths, w.paths, w.rows, w.analysis, w.build, w.took.Seconds())
	}
}

func containsAny(s, list string) bool {
	for _, x := range strings.Split(list, ",") {
		if x != "" && strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// source is the directory of module@version in the module cache, or the
// shared benchmark module.
func source(module string) (string, error) {
	if module == "bench" {
		d := filepath.Join("..", "shared", "bench")
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err != nil {
			return "", fmt.Errorf("../shared/bench not present: %v", err)
		}
		return filepath.Abs(d)
	}
	return modcopy.Download(module)
}

type result struct {
	externals, isolated, sites, paths, rows int
	analysis, build                         float64
	cov                                     string
	took                                    time.Duration
}

// summarize adds up the JSON summaries of dowse gen: paths and isolated
// rows over the targets, the unit's report from the first that has one.
func summarize(out []byte) result {
	var r result
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var s struct {
			Paths     int `json:"paths"`
			Isolation *struct {
				Externals, Isolated, Sites, Rows int
				Analysis                         float64 `json:"analysis_seconds"`
				Build                            float64 `json:"build_seconds"`
			} `json:"isolation"`
		}
		if json.Unmarshal(sc.Bytes(), &s) != nil {
			continue
		}
		r.paths += s.Paths
		if iso := s.Isolation; iso != nil {
			r.rows += iso.Rows
			if r.externals == 0 {
				r.externals, r.isolated, r.sites = iso.Externals, iso.Isolated, iso.Sites
				r.analysis, r.build = iso.Analysis, iso.Build
			}
		}
	}
	return r
}

var coverLine = regexp.MustCompile(`coverage: ([0-9.]+%) of statements`)

// coverage runs a go test command in dir and returns its coverage, or
// FAIL with the reason.
func coverage(dir string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if m := coverLine.FindSubmatch(out); m != nil && err == nil {
		return string(m[1])
	}
	first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return "FAIL (" + first + ")"
}
