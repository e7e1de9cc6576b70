// Command mockbench measures what generated mock types (docs/mocks.md)
// add, the analog of Table VI of "Generating Test Cases for Programs
// that Are Coded Against Interfaces and Annotations": dowse gen with -mocks=false
// (interface inputs are nil or the package's own types) and with mocks,
// on copies of the benchmark module's mocks/* packages (paths against
// EXPECTED.md, package coverage under plain go test, time, solver share,
// mock types), and on real functions that branch on the dynamic type of
// an interface argument: io.Copy, io.CopyN, io.CopyBuffer,
// io.WriteString and io.NopCloser (io.go of the Go installation copied
// into a module, where it is instrumented), github.com/pkg/errors' Cause
// and Masterminds/semver's Version.Scan, each explored through a PUT
// that calls it (written by this command into the copies), with the
// statement coverage of the function itself. Then packages explored
// without a PUT, through their automatic targets (io.go and the errors
// package of the Go installation, github.com/pkg/errors), with the
// package coverage of the generated tests. Last, a survey table (dowse
// survey) over real modules and standard library packages. It prints
// Markdown tables.
//
// Usage (from the repository root, with ../shared/bench beside it):
//
//	go run ./bench/mockbench [-bench ../shared/bench] [-max-len 3] [-max-time 20s] [-mock-calls 3] [-parts bench,real,auto,survey]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/dowse-go/dowse/bench/internal/modcopy"
)

var packages = []string{"mocks/listing7", "mocks/activemq", "mocks/jaxlib", "mocks/xalan", "mocks/jme"}

// A real function and the PUT that explores it.
type realFunc struct {
	module string // "" for the copy of io.go
	fn     string // the function, or Type.Method, for go tool cover -func
	put    string // the PUT's source
}

var realFuncs = []realFunc{
	{"", "Copy", "func PutCopy(t *testing.T, dst Writer, src Reader) { Copy(dst, src) }"},
	{"", "CopyN", "func PutCopyN(t *testing.T, dst Writer, src Reader, n int64) { CopyN(dst, src, n) }"},
	{"", "CopyBuffer", "func PutCopyBuffer(t *testing.T, dst Writer, src Reader, buf []byte) { CopyBuffer(dst, src, buf) }"},
	{"", "WriteString", "func PutWriteString(t *testing.T, w Writer, s string) { WriteString(w, s) }"},
	{"", "NopCloser", "func PutNopCloser(t *testing.T, r Reader) { NopCloser(r) }"},
	{"github.com/pkg/errors@v0.9.1", "Cause", "func PutCause(t *testing.T, err error) { Cause(err) }"},
	{"github.com/Masterminds/semver/v3@v3.5.0", "Version.Scan", "func PutScan(t *testing.T, value any) { var v Version; v.Scan(value) }"},
}

// surveyed are the modules (and standard library packages) of the
// survey table.
var surveyed = []string{
	"github.com/google/uuid@v1.6.0",
	"golang.org/x/mod@v0.42.0",
	"github.com/Masterminds/semver/v3@v3.5.0",
	"github.com/mattn/go-runewidth@v0.0.31",
	"github.com/pkg/errors@v0.9.1",
	"github.com/dustin/go-humanize@v1.1.0",
	"std:io fmt errors flag encoding/json database/sql/driver log/slog text/template net/http",
}

func main() {
	benchDir := flag.String("bench", "../shared/bench", "benchmark module")
	maxLen := flag.Int("max-len", 3, "dowse gen -max-len")
	maxTime := flag.String("max-time", "20s", "dowse gen -max-time per target")
	mockCalls := flag.Int("mock-calls", 3, "dowse gen -mock-calls")
	parts := flag.String("parts", "bench,real,auto,survey", "comma-separated parts to run: bench (the mocks/* packages), real (real functions through PUTs), auto (real packages through their automatic targets), survey")
	flag.Parse()
	log.SetFlags(0)
	work, dowse, err := modcopy.Workspace("mockbench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	src, err := filepath.Abs(*benchDir)
	if err != nil {
		log.Fatal(err)
	}
	expected := parseExpected(filepath.Join(src, "EXPECTED.md"))
	flags := []string{"gen", "-json", "-cache=false", "-max-len", fmt.Sprint(*maxLen), "-max-time", *maxTime, "-mock-calls", fmt.Sprint(*mockCalls)}

	run := func(part string) bool { return slices.Contains(strings.Split(*parts, ","), part) }
	type result struct {
		sums  map[string][]summary // by package
		cover map[string]string
	}
	modes := []bool{false, true}
	results := map[bool]result{}
	for _, mocks := range modes {
		if !run("bench") {
			break
		}
		mod := filepath.Join(work, fmt.Sprintf("bench-%t", mocks))
		if err := os.CopyFS(mod, os.DirFS(src)); err != nil {
			log.Fatal(err)
		}
		args := append(slices.Clone(flags), fmt.Sprintf("-mocks=%t", mocks))
		for _, p := range packages {
			args = append(args, "./"+p)
		}
		r := result{sums: map[string][]summary{}, cover: map[string]string{}}
		for _, s := range gen(dowse, mod, args) {
			p := strings.TrimPrefix(s.Package, "benchcorpus/")
			r.sums[p] = append(r.sums[p], s)
		}
		for _, p := range packages {
			r.cover[p] = coverage(mod, "./"+p)
		}
		results[mocks] = r
	}

	if run("bench") {
		benchTable(results[false].sums, results[true].sums, results[false].cover, results[true].cover, expected, *maxLen, *maxTime, *mockCalls)
	}
	if run("real") {
		realTable(dowse, work, flags, *maxTime)
	}
	if run("auto") {
		autoTable(dowse, work, flags)
	}
	if run("survey") {
		survey(dowse, work)
	}
}

// autoModules are the packages explored without a PUT, through their
// automatic targets: io.go of the Go installation, the errors package
// of the Go installation, and a module of the module proxy.
var autoModules = []string{"", "std:errors", "github.com/pkg/errors@v0.9.1"}

// autoTable explores the automatic targets of autoModules with and
// without mock types and prints the package coverage of the generated
// tests, and the functions whose coverage differs.
func autoTable(dowse, work string, flags []string) {
	fmt.Printf("\nAutomatic targets (no PUT), %s; coverage of the package under its generated tests\n\n", strings.Join(flags[1:], " "))
	fmt.Println("| package | targets | -mocks=false: coverage | with mocks: coverage | mock types used | functions covered more with mocks |")
	fmt.Println("|---|---:|---:|---:|---:|---|")
	for i, m := range autoModules {
		var cov [2]string
		var funcs [2]map[string]string
		targets := 0
		used := map[string]bool{}
		for k, mocks := range []bool{false, true} {
			dir := filepath.Join(work, fmt.Sprintf("auto-%d-%t", i, mocks))
			prepareModule(m, dir)
			args := append(slices.Clone(flags), fmt.Sprintf("-mocks=%t", mocks), ".")
			sums := gen(dowse, dir, args)
			targets = len(sums)
			for _, s := range sums {
				for _, t := range s.MockTypes {
					if mocks {
						used[t.Name] = true
					}
				}
			}
			cov[k], funcs[k] = packageCoverage(dir)
		}
		var more []string
		for _, fn := range slices.Sorted(maps.Keys(funcs[1])) {
			if pct(funcs[1][fn]) > pct(funcs[0][fn]) {
				more = append(more, fmt.Sprintf("%s %s → %s", fn, funcs[0][fn], funcs[1][fn]))
			}
		}
		label := m
		switch {
		case m == "":
			label = "io (copy of the Go installation's io.go)"
		case strings.HasPrefix(m, "std:"):
			label = strings.TrimPrefix(m, "std:") + " (copy of the Go installation's package)"
		}
		fmt.Printf("| %s | %d | %s | %s | %d | %s |\n", label, targets, cov[0], cov[1], len(used), strings.Join(more, "; "))
	}
}

// packageCoverage is the statement coverage of the package in dir under
// its generated tests, in total and per function (file:line name).
func packageCoverage(dir string) (string, map[string]string) {
	profile := filepath.Join(dir, "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-run", "Dowse", "-coverprofile", profile, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "FAIL: " + strings.SplitN(string(out), "\n", 2)[0], nil
	}
	cmd = exec.Command("go", "tool", "cover", "-func", profile)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "?", nil
	}
	funcs := map[string]string{}
	total := "?"
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			continue
		}
		if f[0] == "total:" {
			total = f[2]
			continue
		}
		funcs[filepath.Base(strings.TrimSuffix(f[0], ":"))+" "+f[1]] = f[2]
	}
	return total, funcs
}

// pct reads a percentage such as "75.0%".
func pct(s string) float64 {
	var v float64
	fmt.Sscanf(strings.TrimSuffix(s, "%"), "%g", &v)
	return v
}

// benchTable prints the table of the mocks/* packages.
func benchTable(offSums, onSums map[string][]summary, offCover, onCover, expected map[string]string, maxLen int, maxTime string, mockCalls int) {
	fmt.Printf("dowse gen -max-len %d -max-time %s -mock-calls %d on copies of the benchmark module\n\n", maxLen, maxTime, mockCalls)
	fmt.Println("| package | -mocks=false: coverage | time s | with mocks: coverage | time s | mock types | solver share | paths (EXPECTED / -mocks=false / mocks) | failures (-mocks=false / mocks) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---|---|")
	for _, p := range packages {
		tOff, _, _ := totals(offSums[p])
		tOn, sOn, types := totals(onSums[p])
		var paths, fails []string
		for i, s := range onSums[p] {
			po, fo := "?", "?"
			if i < len(offSums[p]) {
				po, fo = fmt.Sprint(offSums[p][i].Paths), fmt.Sprint(len(offSums[p][i].Failures))
			}
			exp := expected[p+" "+s.Target]
			if exp == "" {
				exp = "?"
			}
			paths = append(paths, fmt.Sprintf("%s %s / %s / %d", s.Target, exp, po, s.Paths))
			fails = append(fails, fmt.Sprintf("%s / %d", fo, len(s.Failures)))
		}
		share := 0.0
		if tOn > 0 {
			share = 100 * sOn / tOn
		}
		fmt.Printf("| %s | %s | %.1f | %s | %.1f | %d | %.0f%% | %s | %s |\n", p, offCover[p], tOff, onCover[p], tOn, types, share, strings.Join(paths, "; "), strings.Join(fails, "; "))
	}
}

// realTable explores the real functions with and without mocks.
func realTable(dowse, work string, flags []string, maxTime string) {
	modes := []bool{false, true}
	fmt.Printf("\nReal functions, each explored alone through its PUT (-max-time %s); coverage is the function's statements under go test\n\n", maxTime)
	fmt.Println("| function | -mocks=false: coverage | paths | with mocks: coverage | paths | mock types used |")
	fmt.Println("|---|---:|---:|---:|---:|---|")
	for i, f := range realFuncs {
		var cov [2]string
		var paths [2]int
		var used []string
		for k, mocks := range modes {
			mod := filepath.Join(work, fmt.Sprintf("real-%d-%t", i, mocks))
			prepare(f, mod)
			args := append(slices.Clone(flags), fmt.Sprintf("-mocks=%t", mocks), "-run", "^"+putName.FindStringSubmatch(f.put)[1]+"$", ".")
			for _, s := range gen(dowse, mod, args) {
				paths[k] = s.Paths
				if mocks {
					for _, m := range s.MockTypes {
						used = append(used, m.Name)
					}
				}
			}
			cov[k] = funcCoverage(mod, f.fn)
		}
		label := "io." + f.fn + " (copy of the Go installation's io.go)"
		if f.module != "" {
			label = f.module + ": " + f.fn
		}
		fmt.Printf("| %s | %s | %d | %s | %d | %s |\n", label, cov[0], paths[0], cov[1], paths[1], strings.Join(used, ", "))
	}
}

type summary struct {
	Package   string            `json:"package"`
	Target    string            `json:"target"`
	Paths     int               `json:"paths"`
	Failures  []json.RawMessage `json:"failures"`
	Elapsed   float64           `json:"elapsed_seconds"`
	Solver    float64           `json:"solver_seconds"`
	MockTypes []struct {
		Name string `json:"name"`
	} `json:"mock_types"`
}

// gen runs dowse in dir and decodes its JSON summaries.
func gen(dowse, dir string, args []string) []summary {
	cmd := exec.Command(dowse, args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, _ := cmd.Output() // exit status 3 when failures were found
	var sums []summary
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var s summary
		if err := dec.Decode(&s); err != nil {
			return sums
		}
		sums = append(sums, s)
	}
}

// totals are the time and solver time of a package's targets and the
// number of distinct mock types their rows use.
func totals(sums []summary) (elapsed, solver float64, types int) {
	names := map[string]bool{}
	for _, s := range sums {
		elapsed += s.Elapsed
		solver += s.Solver
		for _, m := range s.MockTypes {
			names[m.Name] = true
		}
	}
	return elapsed, solver, len(names)
}

var (
	coverRe = regexp.MustCompile(`coverage: ([0-9.]+%)`)
	putName = regexp.MustCompile(`^func (Put\w+)`)
)

// coverage is the statement coverage the generated tests of pkg in dir
// reach under go test (the package's own tests not run).
func coverage(dir, pkg string) string {
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestDowse", "-cover", pkg)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	m := coverRe.FindSubmatch(out)
	if err != nil || m == nil {
		return "FAIL"
	}
	return string(m[1])
}

// prepare makes the module of f in dir, with f's PUT.
func prepare(f realFunc, dir string) {
	pkg := prepareModule(f.module, dir)
	write(filepath.Join(dir, "put_test.go"), "package "+pkg+"\n\nimport \"testing\"\n\n"+f.put+"\n")
}

// prepareModule copies module (a module of the module proxy, "" for
// io.go of the Go installation, "std:errors" for the errors package
// of the Go installation, its internal/reflectlite replaced by reflect)
// into dir without its tests and returns the package name.
func prepareModule(module, dir string) string {
	pkg := "io2"
	if std, ok := strings.CutPrefix(module, "std:"); ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			log.Fatal(err)
		}
		src := filepath.Join(strings.TrimSpace(string(goroot)), "src", std)
		files, _ := filepath.Glob(filepath.Join(src, "*.go"))
		pkg = filepath.Base(std) + "2"
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			data, err := os.ReadFile(name)
			if err != nil {
				log.Fatal(err)
			}
			data = bytes.Replace(data, []byte("\npackage "+filepath.Base(std)+"\n"), []byte("\npackage "+pkg+"\n"), 1)
			data = bytes.ReplaceAll(data, []byte(`"internal/reflectlite"`), []byte(`reflectlite "reflect"`))
			write(filepath.Join(dir, filepath.Base(name)), string(data))
		}
		write(filepath.Join(dir, "go.mod"), "module example.com/"+pkg+"\n\ngo 1.22\n")
		return pkg
	}
	if module == "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			log.Fatal(err)
		}
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			log.Fatal(err)
		}
		io, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "src", "io", "io.go"))
		if err != nil {
			log.Fatal(err)
		}
		io = bytes.Replace(io, []byte("\npackage io\n"), []byte("\npackage io2\n"), 1)
		write(filepath.Join(dir, "go.mod"), "module example.com/io2\n\ngo 1.22\n")
		write(filepath.Join(dir, "io.go"), string(io))
	} else {
		src, err := modcopy.Download(module)
		if err != nil {
			log.Fatal(err)
		}
		if err := modcopy.CopyWritable(src, dir); err != nil {
			log.Fatal(err)
		}
		tests, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		for _, t := range tests {
			os.Remove(t)
		}
		path := strings.Split(module, "@")[0]
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			write(filepath.Join(dir, "go.mod"), "module "+path+"\n\ngo 1.20\n")
		}
		pkg = packageName(dir)
	}
	return pkg
}

// packageName is the name of the package in dir, from its files'
// package clauses.
func packageName(dir string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly)
		if err == nil && !strings.HasSuffix(f.Name.Name, "_test") {
			return f.Name.Name
		}
	}
	log.Fatalf("%s: no Go package", dir)
	return ""
}

func write(path, content string) {
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		log.Fatal(err)
	}
}

// funcCoverage is the statement coverage of function fn of the package
// in dir under its generated tests.
func funcCoverage(dir, fn string) string {
	profile := filepath.Join(dir, "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-run", "Dowse", "-coverprofile", profile, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "FAIL: " + strings.SplitN(string(out), "\n", 2)[0]
	}
	cmd = exec.Command("go", "tool", "cover", "-func", profile)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "?"
	}
	decl := declPosition(dir, fn)
	name := fn
	if i := strings.LastIndex(fn, "."); i >= 0 {
		name = fn[i+1:]
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[1] == name && strings.HasSuffix(strings.TrimSuffix(fields[0], ":"), decl) {
			return fields[2]
		}
	}
	return "?"
}

// declPosition is "file:line" of the function fn (Type.Method for a
// method) declared in the package in dir.
func declPosition(dir, fn string) string {
	recv, name, isMethod := strings.Cut(fn, ".")
	if !isMethod {
		name = fn
	}
	fset := token.NewFileSet()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != name || (fd.Recv != nil) != isMethod {
				continue
			}
			if isMethod && strings.TrimPrefix(types.ExprString(fd.Recv.List[0].Type), "*") != recv {
				continue
			}
			return fmt.Sprintf("%s:%d", filepath.Base(file), fset.Position(fd.Pos()).Line)
		}
	}
	return "?"
}

// survey prints the survey table of the modules.
func survey(dowse, work string) {
	fmt.Println("\nSurvey (dowse survey; non-test files): packages with a finding / packages, functions with a finding / functions, and findings by kind")
	fmt.Println()
	fmt.Println("| module | packages | functions | assert | switch | reflect | tag | errors.As |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---:|")
	for i, m := range surveyed {
		dir := filepath.Join(work, fmt.Sprintf("survey-%d", i))
		args := []string{"survey", "-json", "./..."}
		label := m
		if std, ok := strings.CutPrefix(m, "std:"); ok {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				log.Fatal(err)
			}
			write(filepath.Join(dir, "go.mod"), "module example.com/survey\n\ngo 1.22\n")
			args = append([]string{"survey", "-json"}, strings.Fields(std)...)
			label = "standard library: " + std
		} else {
			src, err := modcopy.Download(m)
			if err != nil {
				log.Fatal(err)
			}
			if err := modcopy.CopyWritable(src, dir); err != nil {
				log.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
				write(filepath.Join(dir, "go.mod"), "module "+strings.Split(m, "@")[0]+"\n\ngo 1.20\n")
			}
		}
		cmd := exec.Command(dowse, args...)
		cmd.Dir = dir
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			fmt.Printf("| %s | error: %v |\n", label, err)
			continue
		}
		var pkgs, flaggedPkgs, funcs, flagged int
		counts := map[string]int{}
		dec := json.NewDecoder(bytes.NewReader(out))
		for {
			var p struct {
				Funcs, Flagged int
				Counts         map[string]int
			}
			if err := dec.Decode(&p); err != nil {
				break
			}
			pkgs++
			if p.Flagged > 0 {
				flaggedPkgs++
			}
			funcs += p.Funcs
			flagged += p.Flagged
			for k, n := range p.Counts {
				counts[k] += n
			}
		}
		fmt.Printf("| %s | %d / %d | %d / %d | %d | %d | %d | %d | %d |\n", label, flaggedPkgs, pkgs, flagged, funcs, counts["assert"], counts["switch"], counts["reflect"], counts["tag"], counts["errors.As"])
	}
}

// parseExpected reads the paths of the mocks/* PUTs from EXPECTED.md's
// table, by "package target".
func parseExpected(path string) map[string]string {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	out := map[string]string{}
	pkg := ""
	for _, line := range strings.Split(string(data), "\n") {
		cols := strings.Split(line, "|")
		if len(cols) < 6 {
			continue
		}
		if p := strings.TrimSpace(cols[1]); p != "" {
			pkg = p
		}
		if !strings.HasPrefix(pkg, "mocks/") {
			continue
		}
		target := strings.Fields(strings.TrimSpace(cols[2]))
		if len(target) == 0 {
			continue
		}
		out[pkg+" "+target[0]] = strings.TrimSpace(cols[4])
	}
	return out
}
