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

// TestStdlibModels checks that branches on bytes.HasPrefix,
// strings.HasSuffix and strings.IndexByte (modelled, not instrumented) are
// solved: PutRoute fails only for a path like "/api/x.json", PutField only
// for "id:42".
func TestStdlibModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/route\n\ngo 1.22\n",
		"route.go": `package route

import (
	"bytes"
	"strings"
)

// Route classifies a request path.
func Route(path string) int {
	if !bytes.HasPrefix([]byte(path), []byte("/api/")) {
		return 0
	}
	if strings.HasSuffix(path, ".json") {
		return 2
	}
	return 1
}

// Field returns the value of an "id:value" pair.
func Field(s string) string {
	i := strings.IndexByte(s, ':')
	if i < 0 || s[:i] != "id" {
		return ""
	}
	return s[i+1:]
}
`,
		"route_test.go": `package route

import (
	"strings"
	"testing"
)

func PutRoute(t *testing.T, path string) {
	if Route(path) == 2 {
		t.Errorf("JSON API path %q", path)
	}
}

func PutField(t *testing.T, s string) {
	if Field(s) == "42" {
		t.Errorf("id 42 in %q", s)
	}
}

// The call sits on the right of ||: it is evaluated after the left
// operand, and only if that is false.
func PutTag(t *testing.T, s string) {
	if len(s) < 2 || !strings.HasPrefix(s, "v") || s[1] != '9' {
		return
	}
	t.Errorf("tag %q", s)
}
`,
	}
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "12", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (the JSON path found)\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	if s := got["PutRoute"]; len(s.Failures) != 1 || s.Paths != 3 {
		t.Errorf("PutRoute: %d failures, %d paths; want 1 failure over 3 paths\n%s", len(s.Failures), s.Paths, stdout)
	}
	if s := got["PutTag"]; len(s.Failures) != 1 {
		t.Errorf("PutTag: %d failures; want the input \"v9\" found behind ||\n%s", len(s.Failures), stdout)
	}
	if s := got["PutField"]; len(s.Failures) != 1 {
		t.Errorf("PutField: %d failures; want the input \"id:42\" found\n%s", len(s.Failures), stdout)
	}
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

// TestSearchModels checks branches behind strings.LastIndexByte,
// strings.ContainsRune, strings.EqualFold and strconv.Atoi ("-42": a
// number with a sign, found although err != nil is not tracked, through
// the model's implicit validity branch): each PUT fails only on
// inputs the model's shadow leads to; EqualFold (modelled for ASCII only)
// must not make its target exhaustive.
func TestSearchModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/search\n\ngo 1.22\n",
		"search_test.go": `package search

import (
	"strconv"
	"strings"
	"regexp"
	"testing"
	"unicode"
	"unicode/utf8"
)

func PutExt(t *testing.T, s string) {
	if i := strings.LastIndexByte(s, '.'); i > 0 && s[i+1:] == "go" {
		t.Fatalf("Go file %q", s)
	}
}

func PutColon(t *testing.T, s string) {
	if strings.ContainsRune(s, ':') && len(s) == 3 && s[0] == 'x' {
		t.Fatalf("x with a colon: %q", s)
	}
}

func PutMethod(t *testing.T, s string) {
	if strings.EqualFold(s, "get") && s[0] == 'G' && s[2] == 't' {
		t.Fatalf("method %q", s)
	}
}

func PutAtoi(t *testing.T, s string) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return
	}
	if n == -42 {
		t.Fatal("minus forty-two")
	}
}

func PutCut(t *testing.T, s string) {
	k, v, ok := strings.Cut(s, "=")
	if ok && k == "ab" && v == "x" {
		t.Fatal("ab=x")
	}
}

func PutTrim(t *testing.T, s, p string) {
	if strings.TrimPrefix(s, "v") == "12" {
		t.Fatal("v12")
	}
	if strings.TrimSuffix(s, p) == "ab" && len(p) == 2 {
		t.Fatal("ab + two")
	}
	if rest, ok := strings.CutPrefix(s, "go"); ok && rest == "!" {
		t.Fatal("go!")
	}
	if rest, ok := strings.CutSuffix(s, ".go"); ok && rest == "m" {
		t.Fatal("m.go")
	}
}

func PutCase(t *testing.T, s string) {
	if strings.ToLower(s) == "get" && s[0] == 'G' && s[2] == 't' {
		t.Fatal("Get-like")
	}
	if strings.ToUpper(s) == "OK" && s[1] == 'k' {
		t.Fatal("Ok-like")
	}
}

func PutSplit(t *testing.T, s string) {
	parts := strings.Split(s, ".")
	if len(parts) == 3 && parts[1] == "ab" && len(parts[2]) == 1 {
		t.Fatal("x.ab.y")
	}
}

func PutSplitN(t *testing.T, s string) {
	kv := strings.SplitN(s, "=", 2)
	if len(kv) == 2 && kv[0] == "k" && kv[1] == "v=" {
		t.Fatal("k=v=")
	}
}

func PutUTF8(t *testing.T, s string) {
	if !utf8.ValidString(s) || utf8.RuneCountInString(s) != 3 {
		return
	}
	if r, n := utf8.DecodeRuneInString(s); n == 1 && r == 'x' && s[2] == 'y' {
		t.Fatal("x?y")
	}
}

func PutTrimFunc(t *testing.T, s string) {
	digit := func(r rune) bool { return r >= '0' && r <= '9' }
	core := strings.TrimFunc(s, digit)
	if core == "ab" && len(s) == 4 && !strings.ContainsFunc(s, unicode.IsSpace) && strings.LastIndexFunc(s, digit) == 3 {
		t.Fatal("ab between digits, a digit last")
	}
}

func PutAny(t *testing.T, s string) {
	sep := strings.LastIndexAny(s, "0123456789. ")
	if sep < 0 || sep != len(s)-3 || strings.IndexAny(s, ". ") != 1 {
		return
	}
	if s[sep+1:] == "kb" {
		t.Fatal("?.?kb")
	}
}

var versionRE = regexp.MustCompile("^v?([0-9]+)\\.([0-9]+)(-([a-z]+))?$")

func PutRegexp(t *testing.T, s string) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil || !versionRE.MatchString(s) {
		return
	}
	if m[1] == "1" && m[4] == "rc" {
		t.Fatal("1.x-rc")
	}
}

func PutTrimReplace(t *testing.T, s string) {
	v := strings.TrimLeft(strings.TrimSpace(s), "0")
	if strings.ReplaceAll(v, " ", "") == "7x" && len(v) == 3 {
		t.Fatal("7 x")
	}
}

func PutItoa(t *testing.T, n int) {
	if strconv.Itoa(n) == "-407" {
		t.Fatal("-407")
	}
}

func PutFields(t *testing.T, s string) {
	f := strings.Fields(s)
	if len(f) == 2 && f[0] == "go" && len(f[1]) == 2 {
		t.Fatal("go xy")
	}
}

var hexValue [256]byte

func init() {
	for i := range hexValue {
		hexValue[i] = 255
	}
	for i, c := range "0123456789abcdef" {
		hexValue[c] = byte(i)
	}
	for i, c := range "ABCDEF" {
		hexValue[c] = byte(10 + i)
	}
}

func PutHex(t *testing.T, s string) {
	if len(s) != 2 {
		return
	}
	hi, lo := hexValue[s[0]], hexValue[s[1]]
	if hi == 255 || lo == 255 {
		return
	}
	if hi<<4|lo == 0xa7 {
		t.Fatal("0xa7")
	}
}

func PutLex(t *testing.T, s string) {
	kinds := ""
	for _, r := range s {
		if unicode.IsDigit(r) {
			kinds += "d"
		} else if unicode.IsUpper(r) {
			kinds += "U"
		} else if unicode.IsLetter(r) {
			kinds += "l"
		} else if unicode.IsSpace(r) {
			kinds += "_"
		}
	}
	if kinds == "Ud_l" {
		t.Fatal("upper, digit, space, lower")
	}
}

func PutLexSwitch(t *testing.T, s string) {
	kinds := ""
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			kinds += "d"
		case unicode.IsUpper(r):
			kinds += "U"
		case r == '_', unicode.IsLetter(r):
			kinds += "l"
		default:
			kinds += "?"
		}
	}
	if kinds == "Udl" {
		t.Fatal("upper, digit, lower")
	}
}

func PutParse(t *testing.T, s, b string) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return
	}
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return
	}
	if ok, err := strconv.ParseBool(b); err == nil && ok && b[0] == 'T' && n == 7 && u == 7 {
		t.Fatal("seven, and true")
	}
}
`,
	}
	// The lexer PUTs search thousands of paths of character classes for
	// their failure; 60 s was not always enough on a loaded 2-core machine.
	code, stdout, stderr, _ := runGenIn(t, files, "-json", "-max-len", "6", "-max-time", "120s", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"PutExt", "PutColon", "PutMethod", "PutAtoi", "PutParse", "PutCut"} {
		if len(got[name].Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
	}
	if !got["PutExt"].Exhaustive || !got["PutColon"].Exhaustive || !got["PutAtoi"].Exhaustive {
		t.Errorf("PutExt, PutColon, PutAtoi: exhaustive %v, %v, %v; want all exact", got["PutExt"].Exhaustive, got["PutColon"].Exhaustive, got["PutAtoi"].Exhaustive)
	}
	for _, name := range []string{"PutSplit", "PutSplitN", "PutAny"} {
		if r := got[name]; len(r.Failures) != 1 || !r.Exhaustive {
			t.Errorf("%s: %d failures, exhaustive %v; want the one failing shape found, exhaustively", name, len(r.Failures), r.Exhaustive)
		}
	}
	if r := got["PutRegexp"]; len(r.Failures) == 0 {
		t.Errorf("PutRegexp: no failure found; want 1.x-rc through the regexp model")
	}
	if r := got["PutItoa"]; len(r.Failures) != 1 || !r.Exhaustive {
		t.Errorf("PutItoa: %d failures, exhaustive %v; want -407 found through the formatting model, exhaustively", len(r.Failures), r.Exhaustive)
	}
	if r := got["PutTrimReplace"]; len(r.Failures) == 0 {
		t.Errorf("PutTrimReplace: no failure found; want \"7 x\" through TrimSpace, TrimLeft and ReplaceAll")
	}
	if r := got["PutTrimFunc"]; len(r.Failures) == 0 {
		t.Errorf("PutTrimFunc: no failure found; want one through the predicate models")
	}
	if r := got["PutUTF8"]; len(r.Failures) != 1 {
		t.Errorf("PutUTF8: %d failures; want the one failing shape found", len(r.Failures))
	}
	// Fields models ASCII strings only: others are a concretization.
	if r := got["PutFields"]; len(r.Failures) != 1 {
		t.Errorf("PutFields: %d failures; want the one failing shape found", len(r.Failures))
	}
	if h := got["PutHex"]; len(h.Failures) != 1 || !h.Exhaustive {
		t.Errorf("PutHex: %d failures, exhaustive %v; want 0xa7 found through the lookup table, exhaustively", len(h.Failures), h.Exhaustive)
	}
	if len(got["PutLexSwitch"].Failures) == 0 {
		t.Errorf("PutLexSwitch: the failing input was not found (calls in case expressions)\n%s", stdout)
	}
	if len(got["PutLex"].Failures) == 0 {
		t.Errorf("PutLex: the failing input was not found\n%s", stdout)
	}
	if n := len(got["PutCase"].Failures); n != 2 {
		t.Errorf("PutCase: %d failures, want 2 (ToLower, ToUpper)", n)
	}
	if n := len(got["PutTrim"].Failures); n != 4 || !got["PutTrim"].Exhaustive {
		t.Errorf("PutTrim: %d failures, exhaustive %v; want the 4 (TrimPrefix, TrimSuffix, CutPrefix, CutSuffix), exhaustive", n, got["PutTrim"].Exhaustive)
	}
	if got["PutMethod"].Exhaustive {
		t.Errorf("PutMethod reported exhaustive, but EqualFold is modelled for ASCII only")
	}
}

// TestBytesModels explores PUTs whose failures hide behind calls of the
// bytes models on an input slice (and of strings.Repeat with a symbolic
// count, and of the unicode/utf8 functions of byte slices): every failing
// input must be found, and
// the targets whose models are exact explored exhaustively. The models of
// TrimSpace, Fields, ToLower/ToUpper (ASCII text: Unicode spaces and case
// mappings are not modelled), the utf8 functions (ASCII text) and
// EqualFold (ASCII folding) record a
// concretization once the search tries bytes that are not ASCII, so their
// targets must not be reported exhaustive.
func TestBytesModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/bytesmodels\n\ngo 1.22\n",
		"bytes_test.go": `package bytesmodels

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func PutFields(t *testing.T, b []byte) {
	f := bytes.Fields(b)
	if len(f) == 2 && len(f[0]) == 1 && f[0][0] == 'g' && len(f[1]) == 2 {
		t.Fatal("g xy")
	}
}

func PutTrimSpace(t *testing.T, b []byte) {
	r := bytes.TrimSpace(b)
	if len(r) == 2 && r[0] == 'a' && len(b) == 4 {
		t.Fatal("a? in four")
	}
}

func PutTrim(t *testing.T, b []byte) {
	if r := bytes.Trim(b, "-"); len(r) == 1 && r[0] == 'x' && len(b) == 3 {
		t.Fatal("-x-")
	}
	if r := bytes.TrimLeft(b, "0"); len(r) == 1 && r[0] == '7' && len(b) == 2 {
		t.Fatal("07")
	}
	if r := bytes.TrimRight(b, "."); len(r) == 2 && r[1] == 'z' && len(b) == 4 {
		t.Fatal("?z..")
	}
}

func PutCut(t *testing.T, b []byte) {
	k, v, ok := bytes.Cut(b, []byte("="))
	if ok && len(k) == 1 && k[0] == 'a' && len(v) == 2 && v[1] == 'z' {
		t.Fatal("a=?z")
	}
}

func PutSplit(t *testing.T, b []byte) {
	p := bytes.Split(b, []byte(","))
	if len(p) == 3 && len(p[1]) == 1 && p[1][0] == 'x' {
		t.Fatal("?,x,?")
	}
}

func PutSplitN(t *testing.T, b []byte) {
	p := bytes.SplitN(b, []byte(":"), 2)
	if len(p) == 2 && len(p[1]) == 2 && p[1][0] == ':' {
		t.Fatal("?::?")
	}
}

func PutSearch(t *testing.T, b []byte) {
	if bytes.Index(b, []byte("ab")) == 1 && bytes.ContainsAny(b, "!?") && bytes.IndexAny(b, "!?") == 0 && bytes.Contains(b, []byte("b")) {
		t.Fatal("!ab")
	}
}

func PutAffix(t *testing.T, b []byte) {
	if r := bytes.TrimPrefix(b, []byte("v")); len(r) == 2 && r[0] == '1' && len(b) == 3 {
		t.Fatal("v1?")
	}
	if r := bytes.TrimSuffix(b, []byte(".go")); len(r) == 1 && r[0] == 'm' && len(b) == 4 {
		t.Fatal("m.go")
	}
}

func PutCase(t *testing.T, b []byte) {
	if l := bytes.ToLower(b); len(l) == 2 && l[0] == 'o' && l[1] == 'k' && b[0] == 'O' {
		t.Fatal("Ok-like")
	}
	if u := bytes.ToUpper(b); len(u) == 1 && u[0] == 'Q' {
		t.Fatal("q")
	}
}

func PutUTF8(t *testing.T, b []byte) {
	if !utf8.Valid(b) || utf8.RuneCount(b) != 2 {
		return
	}
	if r, n := utf8.DecodeRune(b); n == 1 && r == 'x' {
		if r, _ := utf8.DecodeLastRune(b); r == 'y' {
			t.Fatal("xy")
		}
	}
}

func PutUTF8Last(t *testing.T, s string) {
	if r, n := utf8.DecodeLastRuneInString(s); n == 1 && r == '!' && len(s) == 3 {
		t.Fatal("??!")
	}
}

func PutRepeat(t *testing.T, s string, n int) {
	if n < 0 || n > 4 {
		return
	}
	if r := strings.Repeat(s, n); len(r) == 6 && r[1] == 'x' && n == 3 {
		t.Fatal("?x three times")
	}
}

func PutFold(t *testing.T, b []byte) {
	if bytes.EqualFold(b, []byte("get")) && b[0] == 'G' && b[2] == 't' {
		t.Fatal("method")
	}
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "4", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	want := map[string]int{"PutFields": 1, "PutTrimSpace": 1, "PutTrim": 3, "PutCut": 1, "PutSplit": 1, "PutSplitN": 1, "PutSearch": 1, "PutAffix": 2, "PutCase": 2, "PutFold": 1, "PutRepeat": 1, "PutUTF8": 1, "PutUTF8Last": 1}
	for name, n := range want {
		r := got[name]
		if len(r.Failures) != n {
			t.Errorf("%s: %d failures, want %d\n%s", name, len(r.Failures), n, stdout)
		}
		if exact := !slices.Contains([]string{"PutFold", "PutTrimSpace", "PutFields", "PutCase", "PutUTF8", "PutUTF8Last"}, name); r.Exhaustive != exact {
			t.Errorf("%s: exhaustive %v, want %v\n%s", name, r.Exhaustive, exact, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestBuilderModel explores PUTs that build strings with strings.Builder
// (a local value, whose pointer methods the instrumenter calls with &b,
// and a pointer) from input strings, bytes and runes: every failure must
// be found, and the targets that write no rune explored exhaustively
// (a rune that is not ASCII is a concretization).
func TestBuilderModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/buildermodel\n\ngo 1.22\n",
		"builder_test.go": `package buildermodel

import (
	"strings"
	"testing"
)

func PutBuilder(t *testing.T, s string, c byte) {
	var b strings.Builder
	b.Grow(8)
	b.WriteString("<")
	b.WriteString(s)
	b.WriteByte(c)
	if b.Len() == 4 && b.String() == "<ab>" {
		t.Fatal("<ab>")
	}
}

func PutBuilderPtr(t *testing.T, s string) {
	sb := &strings.Builder{}
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			sb.WriteByte(s[i])
		}
	}
	if sb.String() == "xy" && len(s) == 3 {
		t.Fatal("xy and a space")
	}
	sb.Reset()
	sb.WriteString(s)
	if sb.Len() == 1 && sb.String()[0] == 'q' {
		t.Fatal("q")
	}
}

func PutBuilderRune(t *testing.T, r rune, n int) {
	if n < 0 || n > 3 {
		return
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteRune(r)
	b.WriteString(strings.Repeat("-", n))
	if b.String() == "z--" {
		t.Fatal("z--")
	}
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "4", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"PutBuilder", "PutBuilderPtr", "PutBuilderRune"} {
		r := got[name]
		if len(r.Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
		if exact := name != "PutBuilderRune"; r.Exhaustive != exact {
			t.Errorf("%s: exhaustive %v, want %v\n%s", name, r.Exhaustive, exact, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestSlicesModels explores PUTs that use package slices on inputs and on
// slices built from them: every failing input must be found and, since the
// models are exact (an input's longer elements are leaves; a built slice's
// length is chosen), every target explored exhaustively.
func TestSlicesModels(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/slicesmodels\n\ngo 1.22\n",
		"slices_test.go": `package slicesmodels

import (
	"slices"
	"testing"
)

func PutContains(t *testing.T, keys []int, x int) {
	if slices.Contains(keys, x) && x == 7 && len(keys) == 3 {
		t.Fatal("seven among three")
	}
}

func PutIndex(t *testing.T, xs []int) {
	if slices.Index(xs, 5) == 2 {
		t.Fatal("five third")
	}
}

func PutCloneDelete(t *testing.T, xs []int, i int) {
	ys := slices.Clone(xs)
	if i < 0 || i >= len(ys) {
		return
	}
	ys = slices.Delete(ys, i, i+1)
	if len(ys) == 2 && ys[1] == 9 && xs[0] == 9 {
		t.Fatal("nine kept")
	}
}

func PutEqualBuilt(t *testing.T, xs []int) {
	var ys []int
	for _, x := range xs {
		if x > 0 {
			ys = append(ys, x)
		}
	}
	if slices.Equal(ys, []int{4, 2}) {
		t.Fatal("four, two")
	}
}

func PutContainsString(t *testing.T, names []string) {
	if slices.Contains(names, "go") && len(names) == 2 {
		t.Fatal("go among two")
	}
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "4", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, name := range []string{"PutContains", "PutIndex", "PutCloneDelete", "PutEqualBuilt", "PutContainsString"} {
		if len(got[name].Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
		if !got[name].Exhaustive {
			t.Errorf("%s: not exhaustive; the slices models are exact\n%s", name, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestMapModel explores PUTs whose paths depend on which keys of a map
// collide: lengths after stores, deletes, reads of stored symbolic values,
// counting, ranging (keys and values keep their shadows; the order is the
// store order, so runs are deterministic; an entry deleted during the loop
// is not visited), maps as inputs (PUT parameters; an automatic target's
// parameter and result). Before the map model each was reported
// exhaustive with its failing input missed (or found only by the first
// input's luck); now each failure must be found and the target explored
// exhaustively.
func TestMapModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/mapmodel\n\ngo 1.22\n",
		"maps_test.go": `package mapmodel

import "testing"

func PutLen(t *testing.T, a, b int) {
	m := map[int]bool{}
	m[a] = true
	m[b] = true
	if len(m) == 1 && a == 3 {
		t.Fatal("one key")
	}
}

func PutDelete(t *testing.T, a, b int) {
	m := map[int]bool{a: true}
	delete(m, b)
	if len(m) == 0 && b == 4 {
		t.Fatal("deleted")
	}
}

func PutLookup(t *testing.T, k int) {
	m := map[int]string{3: "x", 7: "y"}
	if m[k] == "y" {
		t.Fatal("seven")
	}
}

func PutStoredValue(t *testing.T, k string, v int) {
	m := map[string]int{}
	m[k] = v
	m["fix"] += 2
	if got, ok := m["key"]; ok && got == 40 {
		t.Fatal("forty under key")
	}
	if m["fix"] == 9 {
		t.Fatal("fix is nine")
	}
}

func PutCount(t *testing.T, xs [3]int) {
	count := map[int]int{}
	for _, x := range xs {
		count[x]++
	}
	if count[xs[0]] == 3 {
		t.Fatal("all equal")
	}
}

func PutRange(t *testing.T, a, b int) {
	m := map[int]int{1: a, 2: b}
	sum := 0
	for _, v := range m {
		sum += v
	}
	if sum == 10 {
		t.Fatal("ten")
	}
}

func PutInput(t *testing.T, m map[string]int, k string) {
	if m[k] == 5 && len(m) == 2 {
		t.Fatal("five among two")
	}
}

func PutSumValues(t *testing.T, m map[int]int) {
	s := 0
	for _, v := range m {
		s += v
	}
	if s == 9 && len(m) == 3 {
		t.Fatal("nine in three")
	}
}

type pt struct{ X int }

func mkpt(x int) pt { return pt{X: x} }

func PutStructValue(t *testing.T, x int) {
	m := map[string]pt{}
	m["a"] = mkpt(x)
	if m["a"].X == 7 {
		t.Fatal("seven")
	}
}

func PutRangeKeys(t *testing.T, a, b string) {
	m := map[string]bool{a: true, b: true, "z": true}
	n := 0
	for k := range m {
		if k == "go" {
			n++
		}
		delete(m, "z")
	}
	if n == 1 && len(m) == 2 {
		t.Fatal("go, once, and two left")
	}
}
`,
	}
	files["invert.go"] = `package mapmodel

// Invert maps each value of m to a key that has it.
func Invert(m map[int]int) map[int]int {
	r := map[int]int{}
	for k, v := range m {
		r[v] = k
	}
	return r
}
`
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-auto", "-max-len", "3", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	if s := got["PutStructValue"]; s.Exhaustive && len(s.Failures) == 0 {
		t.Errorf("PutStructValue: exhaustive with its failure missed; a struct stored in a map keeps no shadows")
	}
	if s, ok := got["Invert"]; !ok || !s.Exhaustive {
		t.Errorf("Invert (a map parameter and result): explored %v, exhaustive %v", ok, s.Exhaustive)
	}
	for _, name := range []string{"PutLen", "PutDelete", "PutLookup", "PutStoredValue", "PutCount", "PutRange", "PutRangeKeys", "PutInput", "PutSumValues"} {
		if len(got[name].Failures) == 0 {
			t.Errorf("%s: the failing input was not found\n%s", name, stdout)
		}
		if !got[name].Exhaustive {
			t.Errorf("%s: not exhaustive; the map model is exact here\n%s", name, stdout)
		}
	}
	if got["PutStoredValue"].Failures != nil && len(got["PutStoredValue"].Failures) != 2 {
		t.Errorf("PutStoredValue: %d failures, want 2 (forty under key; fix is nine)", len(got["PutStoredValue"].Failures))
	}
	generatedTestsPass(t, dir)
}

// TestRichInputs explores testdata/richinputs, whose PUTs take pointers,
// a linked list, a slice of lists, an error, a context, a writer and func
// values (stubs whose results are inputs): each
// failing input must be found (the nil pointer's panic among them), the
// pointer-only targets explored exhaustively without divergences (the
// choices of input construction are branches like any other), and the
// generated file must compile and pass.
func TestRichInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "richinputs")), "-json", "-max-len", "3", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (failures found)\n%s", code, stderr)
	}
	type result struct {
		Target      string `json:"target"`
		Exhaustive  bool   `json:"exhaustive"`
		Divergences int    `json:"divergences"`
		Failures    []struct {
			Input string `json:"input"`
		} `json:"failures"`
		Coverage struct {
			Sites, Outcomes, Covered int
		} `json:"coverage"`
	}
	var full []result
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var r result
		if err := dec.Decode(&r); err != nil {
			break
		}
		full = append(full, r)
	}
	want := map[string]struct {
		failures   []string // each failure's input must contain one, in order
		exhaustive bool
	}{
		"PutQuadrant": {[]string{"p.X=-7"}, true},
		"PutSum":      {[]string{"n.Next.Next != nil=true"}, true},
		"PutX":        {[]string{"p != nil=false", "p != nil=true"}, true},
		"PutReport":   {[]string{"err != nil=true"}, false}, // fmt.Fprint concretizes x
		"PutNodes":    {nil, true},
		"PutRetry":    {[]string{"op.call[2].r0 != nil=false"}, true}, // a stub that fails twice, then succeeds
		"PutCount":    {[]string{"xs[0]=5", "xs[0]=5"}, true},         // either call of the stub may keep
		"PutDescribe": {[]string{"v.(type)=3"}, false},                // a bool in an any; its value is concrete
		// r.Read in instrumented code: the bytes keep their shadows.
		"PutIsGIF": {[]string{"len(r)=3, r[0]=71, r[1]=73, r[2]=70"}, true},
		"PutIsOK":  {[]string{"len(r)=2, r[0]=111, r[1]=107"}, true}, // io.ReadAll's model
		// A bufio.Scanner reads the bytes: a concretization, never
		// exhaustive (the failure is out of reach).
		"PutFirstLine": {nil, false},
		// Receives from a buffered, closed channel keep the elements'
		// shadows: a range (one path per length), v, ok := <-in, and
		// len/cap of a send-only channel.
		"PutTotal":     {[]string{"len(in)=1, in[0]=42", "len(in)=2, in[0]=42", "len(in)=3, in[0]=42"}, true},
		"PutFirst":     {[]string{`len(in)=1, in[0]="go"`}, true},
		"PutCountdown": {[]string{"n=", "n="}, true},
		// A receive in a select is not followed: never exhaustive.
		"PutPoll": {nil, false},
	}
	if len(full) != len(want) {
		t.Fatalf("%d summaries, want %d\n%s", len(full), len(want), stdout)
	}
	for _, s := range full {
		w := want[s.Target]
		var inputs []string
		for _, f := range s.Failures {
			inputs = append(inputs, f.Input)
		}
		ok := len(inputs) == len(w.failures)
		for i := 0; ok && i < len(inputs); i++ {
			ok = strings.Contains(inputs[i], w.failures[i])
		}
		if !ok {
			t.Errorf("%s: failures with inputs %q, want %q", s.Target, inputs, w.failures)
		}
		if s.Exhaustive != w.exhaustive || s.Divergences != 0 {
			t.Errorf("%s: exhaustive %v with %d divergences, want %v without", s.Target, s.Exhaustive, s.Divergences, w.exhaustive)
		}
		if s.Coverage.Covered > s.Coverage.Outcomes {
			t.Errorf("%s: %d outcomes covered of %d", s.Target, s.Coverage.Covered, s.Coverage.Outcomes)
		}
	}
	generatedTestsPass(t, dir)
}

// TestBuiltFromPointerConstructor explores a value-receiver method of a
// type whose fields are unexported and that has no method to change it:
// the only way to make one is the constructor, which returns a pointer,
// so the receiver is its pointee (rt.Build.Deref). Count's parameters are
// named like the generated table's fields for expected values.
func TestBuiltFromPointerConstructor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/deref\n\ngo 1.22\n",
		"deref.go": `package deref

import "errors"

// Range is an inclusive range of ints.
type Range struct{ lo, hi int }

// NewRange returns the range [lo, hi].
func NewRange(lo, hi int) (*Range, error) {
	if hi < lo {
		return nil, errors.New("empty")
	}
	return &Range{lo, hi}, nil
}

// Width is the number of ints in r.
func (r Range) Width() int { return r.hi - r.lo + 1 }

// Count has parameters named like the fields of a generated table's
// expected values: the table must still compile.
func Count(want []string, unchecked bool) int {
	if unchecked {
		return -1
	}
	return len(want)
}
`,
	}
	code, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "3", "./...")
	if code != 0 {
		t.Fatalf("exit code %d, want 0\n%s\n%s", code, stdout, stderr)
	}
	got := summaries(t, stdout)
	if s, ok := got["Range.Width"]; !ok || s.Paths == 0 {
		t.Fatalf("Range.Width not explored\n%s", stdout)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "deref_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gen), "return *built") {
		t.Errorf("Range values are not built from NewRange's pointer\n%s", gen)
	}
	generatedTestsPass(t, dir)
}

// TestAutomaticTargets explores testdata/auto, a package without any test:
// every exported function and method is a target (kinds func and method
// in the JSON), receivers are made by the constructor and the methods that
// change them, the panics found are reported with their inputs (a runtime
// error on an empty stack as a finding; a documented panic and the code's
// own check apart), and the generated regression tests pass
// under plain go test and assert the results the functions returned and
// the state pointer receivers were left in.
func TestAutomaticTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, readTree(t, filepath.Join("..", "..", "testdata", "auto")), "-json", "-max-len", "3", "./...")
	if code != 3 {
		t.Fatalf("exit code %d, want 3 (panics found)\n%s\n%s", code, stdout, stderr)
	}
	type result struct {
		Target   string `json:"target"`
		Kind     string `json:"kind"`
		Failures []struct {
			Input      string `json:"input"`
			Documented bool   `json:"documented"`
		} `json:"failures"`
	}
	var got []result
	dec := json.NewDecoder(strings.NewReader(stdout))
	for {
		var s result
		if dec.Decode(&s) != nil {
			break
		}
		got = append(got, s)
	}
	want := []struct{ target, kind, failure string }{
		{"New", "func", ""},
		{"Stack.Push", "method", ""}, // receivers come from New: never nil
		{"Stack.Pop", "method", ""},
		{"Stack.Len", "method", ""},
		{"Clamp", "func", "lo="},          // a deliberate panic (the code's own check)
		{"MustNew", "func", "max="},       // documented: not a finding
		{"Stack.Top", "method", "s.New("}, // index out of range on an empty stack: a finding
	}
	if len(got) != len(want) {
		t.Fatalf("%d targets, want %d\n%s", len(got), len(want), stdout)
	}
	for i, w := range want {
		g := got[i]
		found := len(g.Failures) == 1 && strings.Contains(g.Failures[0].Input, w.failure)
		if w.failure == "" {
			found = len(g.Failures) == 0
		}
		if g.Target != w.target || g.Kind != w.kind || !found {
			t.Errorf("target %d: %s (%s) with failures %+v; want %s (%s) failing on %q", i, g.Target, g.Kind, g.Failures, w.target, w.kind, w.failure)
		}
		if documented := len(g.Failures) > 0 && g.Failures[0].Documented; documented != (g.Target == "MustNew" || g.Target == "Clamp") {
			t.Errorf("%s: failure documented %v; only MustNew's and Clamp's panics are", g.Target, documented)
		}
	}
	gen, err := os.ReadFile(filepath.Join(dir, "stack", "stack_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, assert := range []string{
		"got, err := New(tt.max)", "err := tt.s.Push(tt.x)", `wantErr: "stack: full"`, `wantErr: "stack: empty"`,
		"got := Clamp(tt.x, tt.lo, tt.hi)",
		"if !reflect.DeepEqual(tt.s, tt.wantS) {", // the receiver's state after Push and Pop
		"items: []int{}",                          // emptied by Pop: not nil
		"built, err := New(",                      // receivers made by the constructor
		"built.Push(",                             // and the methods that change them
	} {
		if !strings.Contains(string(gen), assert) {
			t.Errorf("the generated file has no %q\n%s", assert, gen)
		}
	}
	generatedTestsPass(t, dir)
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

// TestMapValuesOfAnyShape explores maps whose values are pointers,
// structs and slices. Pointees keep their shadows, so the failure behind
// a pointer value is found and the search is exhaustive; the fields of a
// struct value and the length of a slice value do not survive the map's
// copy, which must make those verdicts not exhaustive (never a wrong
// "exhaustive"). The generated file must compile and pass.
func TestMapValuesOfAnyShape(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/maps\n\ngo 1.22\n",
		"maps.go": `// Package maps holds shapes.
package maps

// Point is a point.
type Point struct{ X, Y int }

// Node is a list node.
type Node struct {
	Val  int
	Next *Node
}
`,
		"maps_test.go": `package maps

import "testing"

func PutNodes(t *testing.T, m map[int]*Node) {
	if n := m[3]; n != nil && n.Val == 9 {
		t.Fatal("nine")
	}
}

func PutPoints(t *testing.T, m map[string]Point) {
	if p, ok := m["a"]; ok && p.X == 7 {
		t.Fatal("seven")
	}
}

func PutLists(t *testing.T, m map[string][]int) {
	if xs := m["k"]; len(xs) == 2 {
		t.Fatal("two")
	}
}
`,
	}
	_, stdout, stderr, dir := runGenIn(t, files, "-json", "-max-len", "2", "-max-time", "20s", ".")
	got := summaries(t, stdout)
	if len(got) != 3 {
		t.Fatalf("%d summaries, want 3\n%s\n%s", len(got), stdout, stderr)
	}
	if s := got["PutNodes"]; !s.Exhaustive || len(s.Failures) == 0 {
		t.Errorf("PutNodes: exhaustive %v, %d failures; want exhaustive, some\n%s", s.Exhaustive, len(s.Failures), stdout)
	}
	for _, name := range []string{"PutPoints", "PutLists"} {
		if s := got[name]; s.Exhaustive {
			t.Errorf("%s: reported exhaustive although the map's copy of its values loses their shadows\n%s", name, stdout)
		}
	}
	generatedTestsPass(t, dir)
}

// TestFloatInputs explores a PUT, an automatic target and a fuzz target
// with float parameters. Float inputs have shadows and their branches are
// solved exactly, so each target is explored exhaustively; rows and
// corpus files must hold them exactly (NaN, the infinities and -0
// included), and a row whose result is NaN must not be compared
// (NaN != NaN), so that the generated tests pass.
func TestFloatInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	files := map[string]string{
		"go.mod": "module example.com/floats\n\ngo 1.22\n",
		"ratio.go": `// Package ratio divides.
package ratio

import "math"

// Ratio returns a/b, NaN when b is 0.
func Ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}

// Celsius is a temperature.
type Celsius float32

// Freezing reports whether c is at or below freezing.
func Freezing(c Celsius) bool { return c <= 0 }
`,
		"ratio_test.go": `package ratio

import "testing"

func PutRatio(t *testing.T, a, b float64) {
	if r := Ratio(a, b); r > 1e300 {
		t.Skip("huge")
	}
}

func FuzzFreezing(f *testing.F) {
	f.Add(float32(1.5))
	f.Fuzz(func(t *testing.T, c float32) {
		if Freezing(Celsius(c)) && c > 0 {
			t.Fatal("positive and freezing")
		}
	})
}
`,
	}
	_, stdout, stderr, dir := runGenIn(t, files, "-json", "-auto", "-max-len", "2", "-max-time", "5s", ".")
	got := summaries(t, stdout)
	for _, name := range []string{"PutRatio", "FuzzFreezing", "Ratio", "Freezing"} {
		s, ok := got[name]
		if !ok {
			t.Errorf("no summary for %s\n%s\n%s", name, stdout, stderr)
			continue
		}
		if !s.Exhaustive {
			t.Errorf("%s not exhaustive; its float branches are all solvable", name)
		}
		if len(s.Failures) != 0 {
			t.Errorf("%s: %d failures, want none", name, len(s.Failures))
		}
	}
	tree := readTree(t, dir)
	if auto := tree["ratio_dowse_auto_test.go"]; !strings.Contains(auto, "a: 2.5, b: 3.5, want: 0.7142857142857143") {
		t.Errorf("the automatic tests have no row with the distinct inputs a=2.5, b=3.5:\n%s", auto)
	}
	corpus := false
	for name, content := range tree {
		if strings.HasPrefix(name, "testdata/fuzz/FuzzFreezing/") && strings.Contains(content, "\nfloat32(") {
			corpus = true
		}
	}
	if !corpus {
		t.Errorf("no corpus file with a float32 argument for FuzzFreezing")
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
