// Command realcode runs dowse gen with automatic targets on packages of
// real modules from the module proxy, code nobody wrote for dowse: for
// each package it copies the module, measures the statement coverage of
// the package's own tests, removes them, lets dowse generate tests with no
// PUT, checks that they pass, and measures their coverage. It prints one
// row per package and what dowse skipped or found.
//
// Usage (from the repository root; needs the module proxy):
//
//	go run ./bench/realcode [-max-len 6] [-max-time 10s]
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
}

func main() {
	maxLen := flag.Int("max-len", 6, "dowse gen -max-len")
	maxTime := flag.String("max-time", "10s", "dowse gen -max-time per target")
	flag.Parse()
	log.SetFlags(0)
	work, dowse, err := modcopy.Workspace("realcode")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)

	fmt.Printf("dowse gen -max-len %d -max-time %s, automatic targets only (the package's tests removed)\n\n", *maxLen, *maxTime)
	fmt.Println("| package | own tests: coverage | dowse, no PUT: coverage | targets explored / skipped | findings (documented, nil inputs) | generated tests pass |")
	fmt.Println("|---|---:|---:|---|---|---|")
	for i, p := range packages {
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
		for _, t := range tests {
			os.Remove(t)
		}
		gen := exec.Command(dowse, "gen", "-json", "-max-len", fmt.Sprint(*maxLen), "-max-time", *maxTime, pkg)
		gen.Dir = mod
		out, _ := gen.Output()
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
		fmt.Printf("| %s@%s | %s | %s | %d / %d | %d (%d, %d) | %s |\n", name, strings.Split(p.module, "@")[1], own, cov, explored, skipped, findings, documented, nilInputs, pass)
	}
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

// coverage runs go test -cover on pkg in mod.
func coverage(mod, pkg string) string {
	cmd := exec.Command("go", "test", "-count=1", "-cover", pkg)
	cmd.Dir = mod
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
