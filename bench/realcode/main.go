// Command realcode runs dowse gen with automatic targets on packages of
// real modules from the module proxy, code nobody wrote for dowse: for
// each package it copies the module, measures the statement coverage of
// the package's own tests, removes them, lets dowse generate tests with no
// PUT, checks that they pass, and measures their coverage. For a package
// with fuzz targets of its own, it also gives go test -fuzz the wall time
// dowse took, shared among those targets on a copy with the package's
// tests, and measures what the targets' seeds and the corpus the fuzzer
// built reach. It prints one row per package and what dowse skipped or
// found.
//
// Usage (from the repository root; needs the module proxy):
//
//	go run ./bench/realcode [-max-len 6] [-max-time 10s] [-packages uuid,runewidth]
package main

import (
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

// packages are module@version and the package directory in it.
var packages = []struct{ module, dir string }{
	{"github.com/google/uuid@v1.6.0", "."},
	{"golang.org/x/mod@v0.42.0", "semver"},
	{"golang.org/x/mod@v0.42.0", "module"},
	{"github.com/Masterminds/semver/v3@v3.5.0", "."},
	{"github.com/mattn/go-runewidth@v0.0.31", "."},
	{"github.com/pkg/errors@v0.9.1", "."},
	{"github.com/dustin/go-humanize@v1.1.0", "."},
}

func main() {
	maxLen := flag.Int("max-len", 6, "dowse gen -max-len")
	maxTime := flag.String("max-time", "10s", "dowse gen -max-time per target")
	only := flag.String("packages", "", "comma-separated substrings: run only the packages whose path contains one")
	fuzz := flag.Bool("fuzz", true, "run go test -fuzz on the packages' own fuzz targets for dowse's wall time")
	flag.Parse()
	log.SetFlags(0)
	work, dowse, err := modcopy.Workspace("realcode")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)

	fmt.Printf("dowse gen -max-len %d -max-time %s, automatic targets only (the package's tests removed)\n\n", *maxLen, *maxTime)
	fmt.Println("| package | own tests: coverage | dowse, no PUT: coverage | go test -fuzz, own targets, same wall time: coverage | dowse time | targets explored / skipped | findings (documented, nil inputs) | generated tests pass |")
	fmt.Println("|---|---:|---:|---:|---:|---|---|---|")
	for i, p := range packages {
		if !selected(p.module+"/"+p.dir, *only) {
			continue
		}
		dir, err := modcopy.Download(p.module)
		if err != nil {
			log.Fatal(err)
		}
		mod := filepath.Join(work, fmt.Sprint(i))
		if err := modcopy.CopyWritable(dir, mod); err != nil {
			log.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(mod, "go.mod")); err != nil {
			path, _, _ := strings.Cut(p.module, "@")
			os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module "+path+"\n\ngo 1.20\n"), 0o644)
		}
		pkg := "./" + p.dir
		own := coverage(mod, pkg)
		tests, _ := filepath.Glob(filepath.Join(mod, p.dir, "*_test.go"))
		targets := fuzzTargets(tests)
		var withTests string
		if *fuzz && len(targets) > 0 {
			withTests = mod + "-fuzz"
			if err := modcopy.CopyWritable(mod, withTests); err != nil {
				log.Fatal(err)
			}
		}
		for _, t := range tests {
			os.Remove(t)
		}
		gen := exec.Command(dowse, "gen", "-json", "-max-len", fmt.Sprint(*maxLen), "-max-time", *maxTime, pkg)
		gen.Dir = mod
		began := time.Now()
		out, _ := gen.Output()
		took := time.Since(began)
		fuzzCov := "—"
		if withTests != "" {
			fuzzCov = fuzzCoverage(withTests, pkg, targets, took)
		}
		explored, skipped, findings, documented, nilInputs := summarize(out)
		cov := coverage(mod, pkg)
		pass := "yes"
		if strings.HasPrefix(cov, "FAIL") {
			pass = "no"
		}
		name := strings.Split(p.module, "@")[0]
		if p.dir != "." {
			name += "/" + p.dir
		}
		fmt.Printf("| %s@%s | %s | %s | %s | %s | %d / %d | %d (%d, %d) | %s |\n", name, strings.Split(p.module, "@")[1], own, cov, fuzzCov, took.Round(time.Second), explored, skipped, findings, documented, nilInputs, pass)
	}
}

// selected reports whether path contains one of the comma-separated
// substrings of only (all paths if only is empty).
func selected(path, only string) bool {
	if only == "" {
		return true
	}
	for _, s := range strings.Split(only, ",") {
		if s != "" && strings.Contains(path, s) {
			return true
		}
	}
	return false
}

var fuzzFunc = regexp.MustCompile(`(?m)^func (Fuzz\w*)\(\w+ \*testing\.F\)`)

// fuzzTargets lists the fuzz targets declared in the test files.
func fuzzTargets(files []string) []string {
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, m := range fuzzFunc.FindAllSubmatch(data, -1) {
			names = append(names, string(m[1]))
		}
	}
	return names
}

// fuzzCoverage fuzzes each of targets in the module copy mod for an equal
// share of budget, from a cleared cache corpus, moves the corpus each
// built into the package's testdata/fuzz, and returns the statement
// coverage of running the targets alone over their seeds and corpora (a
// failing input is left out: it would end the measuring run).
func fuzzCoverage(mod, pkg string, targets []string, budget time.Duration) string {
	dir := filepath.Join(mod, pkg)
	share := max(budget/time.Duration(len(targets)), time.Second)
	importPath := strings.TrimSpace(output(dir, "go", "list", "."))
	cache := filepath.Join(strings.TrimSpace(output(dir, "go", "env", "GOCACHE")), "fuzz", importPath)
	for _, t := range targets {
		corpus := filepath.Join(cache, t)
		os.RemoveAll(corpus)
		cmd := exec.Command("go", "test", "-run", "^$", "-fuzz", "^"+t+"$", "-fuzztime", share.String(), ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, _ := cmd.CombinedOutput()
		modcopy.KeepFuzzCorpus(corpus, dir, t, out)
	}
	cov := coverage(dir, "-run", "^("+strings.Join(targets, "|")+")$", ".")
	if strings.HasSuffix(cov, "%") {
		cov += fmt.Sprintf(" (%d targets)", len(targets))
	}
	return cov
}

// output runs a command in dir and returns its standard output.
func output(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, _ := cmd.Output()
	return string(out)
}

// summarize counts dowse gen's JSON summaries.
func summarize(out []byte) (explored, skipped, findings, documented, nilInputs int) {
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var s struct {
			Skipped  string `json:"skipped"`
			Error    string `json:"error"`
			Failures []struct {
				Documented bool `json:"documented"`
				NilInput   bool `json:"nil_input"`
			} `json:"failures"`
		}
		if dec.Decode(&s) != nil {
			return
		}
		switch {
		case s.Skipped != "" || s.Error != "":
			skipped++
			continue
		}
		explored++
		for _, f := range s.Failures {
			switch {
			case f.Documented:
				documented++
			case f.NilInput:
				nilInputs++
			default:
				findings++
			}
		}
	}
}

var coverRE = regexp.MustCompile(`coverage: ([0-9.]+%) of statements`)

// coverage runs go test -cover with args (packages last) in dir and
// returns the statement coverage it prints, "FAIL" or "—".
func coverage(dir string, args ...string) string {
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-cover"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	m := coverRE.FindStringSubmatch(string(out))
	switch {
	case err != nil:
		return "FAIL"
	case m == nil:
		return "—"
	}
	return m[1]
}
