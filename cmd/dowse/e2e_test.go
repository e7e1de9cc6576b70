package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readTree reads the files below dir (relative path to content).
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// generatedTestsPass runs plain go test on the module in dir, with the
// files dowse generated, and fails the test if it fails.
func generatedTestsPass(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generated tests fail under go test: %v\n%s", err, out)
	}
}

type summary struct {
	Package    string            `json:"package"`
	Target     string            `json:"target"`
	Paths      int               `json:"paths"`
	Exhaustive bool              `json:"exhaustive"`
	Failures   []json.RawMessage `json:"failures"`
}

// summaryList decodes the JSON summaries dowse gen printed, in order.
func summaryList(out string) []summary {
	var list []summary
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var s summary
		if err := dec.Decode(&s); err != nil {
			return list
		}
		list = append(list, s)
	}
}

// targetResults decodes the target results of a dowse gen -json stream,
// each into a T, by target name; other objects (progress events, an
// error ending the stream) are left out.
func targetResults[T any](t *testing.T, out string) map[string]T {
	t.Helper()
	res := map[string]T{}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatalf("decoding the JSON stream: %v\n%s", err, out)
		}
		var id struct {
			Target string `json:"target"`
		}
		if json.Unmarshal(raw, &id) != nil || id.Target == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("decoding the result of %s: %v", id.Target, err)
		}
		res[id.Target] = v
	}
	return res
}

// summaries maps target names to their summaries.
func summaries(t *testing.T, out string) map[string]summary {
	t.Helper()
	res := map[string]summary{}
	for _, s := range summaryList(out) {
		res[s.Target] = s
	}
	return res
}

// TestMagicValues runs dowse gen on the magic-value suite: every magic
// branch must be found (each fuzz target fails there), every target
// explored exhaustively, and the generated corpus must cover the package
// fully when the failing inputs run too.
func TestMagicValues(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "magic")), "-json", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s", code, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"FuzzSeed", "FuzzOverflows", "FuzzWord", "FuzzHeader", "FuzzChecksum"} {
		s, ok := got[target]
		if !ok {
			t.Errorf("%s: no summary", target)
			continue
		}
		if len(s.Failures) != 1 || !s.Exhaustive {
			t.Errorf("%s: %d failures, exhaustive %v; want the magic branch found, exhaustively", target, len(s.Failures), s.Exhaustive)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-cover", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DOWSE_REPRODUCE=1")
	out, _ := cmd.CombinedOutput() // the failing inputs fail
	m := regexp.MustCompile(`coverage: ([0-9.]+)% of statements`).FindSubmatch(out)
	if m == nil || string(m[1]) != "100.0" {
		t.Errorf("coverage of the generated corpus: %s\n%s", m, out)
	}
}

// TestExampleBank runs dowse gen on the README's example and checks that
// the generated tests pass under plain go test and that the planted
// overflow bug is found.
func TestExampleBank(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "examples", "bank")), "-json", "./...")
	if code != 3 && code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	got := summaries(t, stdout)
	if s := got["PutWithdrawKeepsLimit"]; len(s.Failures) == 0 {
		t.Errorf("the overflow in Withdraw was not found: %s", stdout)
	}
	generatedTestsPass(t, dir)
	// A second run with the same seed writes byte-identical files.
	before := readTree(t, dir)
	var out, errb bytes.Buffer
	if code := genMain(context.Background(), []string{"-C", dir, "-json", "./..."}, &out, &errb); code != 3 && code != 0 {
		t.Fatalf("second run: exit code %d\n%s", code, errb.String())
	}
	after := readTree(t, dir)
	for name, content := range before {
		if after[name] != content {
			t.Errorf("%s changed on the second run", name)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d files after the second run, %d before", len(after), len(before))
	}
}

// TestStaleGeneratedFile checks that a generated file that no longer
// compiles (its PUT's parameters changed) is ignored and regenerated
// instead of stopping dowse.
func TestStaleGeneratedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod":      "module example.com/stale\n\ngo 1.22\n",
		"abs.go":      "package stale\n\n// Abs returns |x|.\nfunc Abs(x int) int {\n\tif x < 0 {\n\t\treturn -x\n\t}\n\treturn x\n}\n",
		"abs_test.go": "package stale\n\nimport \"testing\"\n\nfunc PutAbs(t *testing.T, x int) {\n\tif Abs(x) < 0 && x != -x {\n\t\tt.Error(\"negative\")\n\t}\n}\n",
		// Written for an older PutAbs(t, x, y).
		"abs_dowse_test.go": "// Code generated by dowse. DO NOT EDIT.\n\npackage stale\n\nimport \"testing\"\n\nfunc TestDowsePutAbs(t *testing.T) { PutAbs(t, 1, 2) }\n",
	}
	code, _, stderr, dir := runGenIn(t, files, "./...")
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "abs_dowse_test.go: generated by dowse and does not compile: ignored") {
		t.Errorf("no warning about the stale file:\n%s", stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "abs_dowse_test.go"))
	if err != nil || strings.Contains(string(data), "PutAbs(t, 1, 2)") {
		t.Fatalf("the stale file was not regenerated: %v\n%s", err, data)
	}
	generatedTestsPass(t, dir)
}

// TestSoundnessShapes runs dowse gen on testdata/soundness, where every
// PUT has a failing input behind a closure, a callback, a method value, a
// deferred function or generic code. A target whose failing input is not
// found must not be reported exhaustive; the shapes dowse tracks precisely
// must have their failing input found.
func TestSoundnessShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "soundness")), "-json", "-max-time", "20s", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s", code, stderr)
	}
	got := summaries(t, stdout)
	mustFind := []string{
		"PutCapturedByCheck", "PutCapturedInPUT", "PutClosureWritesCapture", "PutSubtest",
		"PutHelperCallback", "PutCounter", "PutLibraryCallback", "PutMethodValuePointer",
		"PutDeferredClosure", "PutDeferInPUT", "PutIndexOutOfRangeFirst", "PutTrimmed", "PutPopLast",
		"PutPointerAt", "PutFieldAt", "PutStoreAt", "PutAddressAt", "PutConstantIndex", "PutChainedRecords", "PutChainedText", "PutFarRead",
		"PutStructResult", "PutStructResultDefine", "PutStructResultVar", "PutStructResultElem", "PutLabel", "PutLabelArg", "PutQuoted", "PutPointerLiteral",
		"PutStructsEqual", "PutArraysEqual", "PutCopiedPrefix", "PutBoxedDecl",
	}
	for _, name := range mustFind {
		if s, ok := got[name]; !ok || len(s.Failures) == 0 {
			t.Errorf("%s: failing input not found (summary present: %v)", name, ok)
		}
	}
	if len(got) < len(mustFind)+6 {
		t.Errorf("%d summaries, want every PUT of the package\n%s", len(got), stdout)
	}
	for name, s := range got {
		if len(s.Failures) == 0 && s.Exhaustive {
			t.Errorf("%s: reported exhaustive, but it has a failing input that was not found", name)
		}
	}
	if !got["PutTrimmed"].Exhaustive {
		t.Errorf("PutTrimmed: not exhaustive; a slice of an input must be bounded by the input's length, not by a constant")
	}
	if !got["PutPopLast"].Exhaustive {
		t.Errorf("PutPopLast: not exhaustive; a symbolic index into an input must select among the elements of longer inputs too")
	}
	// A symbolic index into pointers, structs, stored-to or address-taken
	// elements is chosen value by value, which covers every value in
	// range: no concretization.
	// A struct result beside other results has its fields' shadows, so
	// the search is exact there too.
	for _, name := range []string{"PutPointerAt", "PutFieldAt", "PutStoreAt", "PutAddressAt", "PutConstantIndex", "PutChainedRecords", "PutChainedText", "PutFarRead",
		"PutStructResult", "PutStructResultDefine", "PutStructResultVar", "PutStructResultElem", "PutLabel", "PutLabelArg", "PutQuoted", "PutPointerLiteral",
		"PutStructsEqual", "PutArraysEqual", "PutCopiedPrefix", "PutBoxedDecl"} {
		if !got[name].Exhaustive {
			t.Errorf("%s: not exhaustive; a chosen index covers every value in range", name)
		}
	}
	// Values sent on a channel or stored in a map literal lose their
	// shadows: not exhaustive.
	for _, name := range []string{"PutSentOnChannel", "PutStructOnChannel", "PutMapOfStructs", "PutMapOfPointers", "PutMapOfSlices",
		"PutDeferredResult"} {
		if s := got[name]; s.Exhaustive {
			t.Errorf("%s: exhaustive, but what was read back had no shadow", name)
		}
	}
	generatedTestsPass(t, dir)
}

// TestInstrumentModuleTwoImporters explores two packages that import the
// same package of the module with -instrument-module, and that package's
// own PUT: each worker binary must get that package instrumented once, so
// every PUT sees its three grades (a package instrumented twice once gave
// the second PUT one path and an "exhaustive" verdict; the loader shares a
// file's syntax tree between a package and its test variant, so the
// package's own binary rewrote it twice too).
func TestInstrumentModuleTwoImporters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, _ := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "twoimporters")), "-json", "-instrument-module", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s", code, stderr)
	}
	list := summaryList(stdout)
	for _, r := range list {
		// Grade's three outcomes, and n == 95 (or 77) within one of them.
		if r.Paths != 4 || len(r.Failures) != 1 {
			t.Errorf("%s %s: %d paths, %d failures; want 4 paths, 1 failure", r.Package, r.Target, r.Paths, len(r.Failures))
		}
	}
	if len(list) != 3 {
		t.Errorf("%d summaries, want 3\n%s", len(list), stdout)
	}
}

// TestSideEffectsStayOut explores a PUT whose code writes a file at a
// relative path and reads its testdata: workers run in a copy of the
// package directory, so the file lands there, never next to the user's
// sources, while testdata is still found.
func TestSideEffectsStayOut(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod":             "module example.com/effects\n\ngo 1.22\n",
		"testdata/limit.txt": "7\n",
		"save.go": `package effects

import (
	"os"
	"strconv"
	"strings"
)

// Save writes n to last.txt and reports whether it exceeds the limit in
// testdata/limit.txt.
func Save(n int) bool {
	_ = os.WriteFile("last.txt", []byte(strconv.Itoa(n)), 0o666)
	data, err := os.ReadFile("testdata/limit.txt")
	if err != nil {
		panic(err)
	}
	limit, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n > limit
}
`,
		"save_test.go": `package effects

import "testing"

func PutSave(t *testing.T, n int) {
	if Save(n) && n == 100 {
		t.Fatal("100 is over the limit")
	}
}
`,
	}
	// Without the sandbox: Save's file accesses run for real, in the copy
	// of the package directory (with it, they are isolated: TestIsolateBench).
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-isolate=off", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (the failure found)\n%s\n%s", code, stdout, stderr)
	}
	if s := summaries(t, stdout)["PutSave"]; len(s.Failures) != 1 {
		t.Errorf("PutSave: %d failures, want 1 (testdata read from the copy)\n%s", len(s.Failures), stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "last.txt")); err == nil {
		t.Errorf("exploration wrote last.txt into the package directory")
	}
}

// TestRuntimeSeeds checks that a fuzz target's seeds reach the search
// however they were made: f.Add in a loop over values a call returns, and
// files of the package's testdata/fuzz corpus. Each target fails only on
// a string whose CRC-32 (computed by uninstrumented code, so the solver
// cannot invert it) matches one seed.
func TestRuntimeSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/seeds\n\ngo 1.22\n",
		"crc.go": `package seeds

import "hash/crc32"

// Sum is the CRC-32 of s.
func Sum(s string) uint32 { return crc32.ChecksumIEEE([]byte(s)) }
`,
		"crc_test.go": `package seeds

import (
	"strings"
	"testing"
)

func words() []string { return strings.Fields("alpha beta open_sesame") }

func FuzzAdded(f *testing.F) {
	for _, w := range words() {
		f.Add(strings.ReplaceAll(w, "_", " "))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if Sum(s) == 0x43bab07e {
			t.Fatalf("found %q", s)
		}
	})
}

func FuzzCorpus(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if Sum(s) == 0x71daa943 {
			t.Fatalf("found %q", s)
		}
	})
}
`,
		"testdata/fuzz/FuzzCorpus/seed": "go test fuzz v1\nstring(\"from the corpus\")\n",
	}
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "16", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"FuzzAdded", "FuzzCorpus"} {
		if s := got[name]; len(s.Failures) != 1 {
			t.Errorf("%s: %d failures, want the seed's failure\n%s", name, len(s.Failures), stdout)
		}
	}
}

// TestMutationPhase explores a PUT whose failing branch is behind a call
// dowse does not model (fmt.Sprintf: the value is concretized, so the
// solver cannot reach the branch): once the concolic search has nothing
// left, mutating the inputs it found reaches it; with -mutate=false it is
// not found.
func TestMutationPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/opaque\n\ngo 1.22\n",
		"opaque.go": `package opaque

import "fmt"

// Tag is the hexadecimal form of n.
func Tag(n int) string { return fmt.Sprintf("%x", n) }
`,
		"opaque_test.go": `package opaque

import (
	"strings"
	"testing"
)

func PutTag(t *testing.T, n int) {
	if n > 1000 && strings.HasSuffix(Tag(n), "7") {
		t.Fatal("ends in 7")
	}
}
`,
	}
	type summary struct {
		Failures      []json.RawMessage `json:"failures"`
		MutationRuns  int               `json:"mutation_runs"`
		MutationPaths int               `json:"mutation_paths"`
	}
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "./...")
	var s summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout, stderr)
	}
	if code != 3 || len(s.Failures) != 1 || s.MutationRuns == 0 || s.MutationPaths == 0 {
		t.Errorf("exit %d, %d failures, %d mutation runs finding %d paths; want the failure found by mutation\n%s", code, len(s.Failures), s.MutationRuns, s.MutationPaths, stdout)
	}
	code, stdout, _, _ = runGenIn(t, files, "-json", "-mutate=false", "./...")
	s = summary{}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 0 || len(s.Failures) != 0 || s.MutationRuns != 0 {
		t.Errorf("-mutate=false: exit %d, %d failures, %d mutation runs; want none (the solver cannot reach the branch)\n%s", code, len(s.Failures), s.MutationRuns, stdout)
	}
}

// TestBoundLimited explores a header parser that needs at least 12 bytes
// with -max-len 8: the target is exhaustive within the bound, and the
// report names the branch only longer inputs reach and a length that
// reaches it.
func TestBoundLimited(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/header\n\ngo 1.22\n",
		"header.go": `package header

// ID returns the message ID of a 12-byte header, or -1.
func ID(b []byte) int {
	if len(b) < 12 {
		return -1
	}
	return int(b[0])<<8 | int(b[1])
}
`,
		"header_test.go": `package header

import "testing"

func FuzzID(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if ID(b) == 0x1234 {
			t.Fatal("message 0x1234")
		}
	})
}
`,
	}
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "8", "./...")
	if code != 0 {
		t.Fatalf("exit code %d, want 0 (nothing found within the bound)\n%s\n%s", code, stdout, stderr)
	}
	var s struct {
		Exhaustive   bool `json:"exhaustive"`
		BoundLimited []struct {
			Site    string   `json:"site"`
			Lengths []string `json:"lengths"`
		} `json:"bound_limited"`
	}
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if !s.Exhaustive || len(s.BoundLimited) != 1 || s.BoundLimited[0].Site != "header.go:5:5" {
		t.Fatalf("exhaustive %v, bound_limited %+v; want exhaustive within the bound and the len(b) < 12 branch named\n%s", s.Exhaustive, s.BoundLimited, stdout)
	}
	if l := s.BoundLimited[0].Lengths; len(l) != 1 || !regexp.MustCompile(`^len\(b\)=(1[2-9]|[2-9][0-9])$`).MatchString(l[0]) {
		t.Errorf("lengths %v, want len(b) of at least 12", l)
	}

	// With the default bound (10) and no -max-len, the bound is raised to
	// what the branch needs and the failure behind it is found.
	code, stdout, stderr, _ = runGenIn(t, files, "-json", "./...")
	if code != 3 {
		t.Fatalf("default bound: exit code %d, want 3 (the 0x1234 message found with the bound raised)\n%s\n%s", code, stdout, stderr)
	}
	var r struct {
		Failures []json.RawMessage `json:"failures"`
		Bounds   struct {
			MaxLen     int `json:"max_len"`
			RaisedFrom int `json:"raised_from"`
		} `json:"bounds"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(r.Failures) != 1 || r.Bounds.RaisedFrom != 10 || r.Bounds.MaxLen < 12 || r.Bounds.MaxLen > 64 {
		t.Errorf("failures %d, bounds %+v; want 1 failure, the bound raised from 10 to at least 12 (cap 64)\n%s", len(r.Failures), r.Bounds, stdout)
	}
}

// TestBuildCrashRejects explores automatic targets whose receiver is built
// by a method that crashes the process (a panic in a goroutine) for one
// argument: the method's own target reports the crash, but targets that
// merely build their receiver with it reject that input (counted in
// build_crashes, not exhaustive) instead of reporting a failure of their
// own, and their generated tests pass.
func TestBuildCrashRejects(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/counter\n\ngo 1.22\n",
		"counter.go": `// Package counter counts.
package counter

import "time"

// Counter adds numbers.
type Counter struct{ n int }

// New returns an empty counter.
func New() *Counter { return &Counter{} }

// Add adds k; 4242 crashes the process.
func (c *Counter) Add(k int) {
	if k == 4242 {
		go func() { panic("crash") }()
		time.Sleep(time.Second)
	}
	c.n += k
}

// Big reports whether the count is above 100.
func (c *Counter) Big() bool { return c.n > 100 }
`,
	}
	// The crash needs the real time.Sleep: in the sandbox the sleep
	// returns at once and the goroutine's panic comes after the run.
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "2", "-max-time", "30s", "-mutate=false", "-isolate=off", ".")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d\n%s", code, exitFindings, stderr)
	}
	type result struct {
		Target       string            `json:"target"`
		Failures     []json.RawMessage `json:"failures"`
		BuildCrashes int               `json:"build_crashes"`
		Incomplete   []string          `json:"incomplete"`
	}
	got := map[string]result{}
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var r result
		if dec.Decode(&r) != nil {
			break
		}
		got[r.Target] = r
	}
	if r := got["Counter.Add"]; len(r.Failures) != 1 {
		t.Errorf("Counter.Add: %d failures, want 1 (the crash)\n%s", len(r.Failures), stdout)
	}
	big := got["Counter.Big"]
	if len(big.Failures) != 0 || big.BuildCrashes == 0 || !slices.Contains(big.Incomplete, "build-crash") {
		t.Errorf("Counter.Big: %d failures, %d build crashes, incomplete %v; want none, some, build-crash\n%s", len(big.Failures), big.BuildCrashes, big.Incomplete, stdout)
	}
	generatedTestsPass(t, dir)
}

// TestRestoresPackageState generates automatic tests for a setter of
// package state and a function reading it: the setter's test must
// restore the variable when it ends, so that the reader's rows, computed
// in fresh worker processes, hold in the same test binary and are
// compared (not marked unstable).
func TestRestoresPackageState(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/scale\n\ngo 1.22\n",
		"scale.go": `// Package scale multiplies.
package scale

var factor = 3

// SetFactor sets the factor.
func SetFactor(n int) { factor = n }

// Scale multiplies x by the factor.
func Scale(x int) int { return x * factor }
`,
	}
	code, _, stderr, dir := runGenIn(t, files, "-max-len", "2", "-max-time", "10s", ".")
	if code != exitOK {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	gen := readTree(t, dir)["scale_dowse_auto_test.go"]
	if !strings.Contains(gen, "t.Cleanup(func() func() { saved := factor; return func() { factor = saved } }())") {
		t.Errorf("TestDowseSetFactor does not restore factor:\n%s", gen)
	}
	if strings.Contains(gen, "unchecked") || !strings.Contains(gen, "want: ") {
		t.Errorf("Scale's rows are not all compared:\n%s", gen)
	}
	generatedTestsPass(t, dir)
}
