package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// general reads the module of testdata/general/<name>.
func general(t *testing.T, name string) map[string]string {
	t.Helper()
	return readTree(t, filepath.Join("..", "..", "testdata", "general", name))
}

// ifaceSummary is what the tests of interface inputs read of a target's
// JSON summary.
type ifaceSummary struct {
	Target   string            `json:"target"`
	Failures []json.RawMessage `json:"failures"`
	Coverage struct {
		Outcomes, Covered int
	} `json:"coverage"`
}

// An io.Writer parameter that the code asserts to io.StringWriter and to
// an interface of its own is a choice of dynamic type like any other
// interface: dowse's buffer, and mock types whose Write returns a solved
// count and error. Only a mock that reports more bytes than it was given
// reaches the slice expression behind n > len(body), which panics; every
// branch outcome is covered, and the rows, written as Go literals,
// compile and pass.
func TestGeneralWriterChoice(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "writer"), "-json", "-cache=false", "-max-time", "60s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (the panic found)\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	s, ok := targetResults[ifaceSummary](t, stdout)["Write"]
	if !ok {
		t.Fatalf("no summary of Write\n%s", stdout)
	}
	found := false
	for _, f := range s.Failures {
		found = found || strings.Contains(string(f), "slice bounds out of range") && strings.Contains(string(f), "dowseWriter")
	}
	if !found {
		t.Errorf("no slice panic with a mock writer among the failures\n%s", stdout)
	}
	if s.Coverage.Outcomes == 0 || s.Coverage.Covered != s.Coverage.Outcomes {
		t.Errorf("%d of %d branch outcomes covered, want all", s.Coverage.Covered, s.Coverage.Outcomes)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "record_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, lit := range []string{"new(bytes.Buffer)", "&dowseWriterStringWriter{", "&dowseWriterFlusher{"} {
		if !strings.Contains(string(gen), lit) {
			t.Errorf("the generated file has no row with %s\n%s", lit, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// An any parameter that the code switches on (error, fmt.Stringer, an
// anonymous interface{ Len() int }) and then reflects over is a choice
// that includes the package's own types: only Point, whose two exported
// fields carry codec tags, reaches "two encoded fields"; its row is a Go
// literal of the package's type, and the generated tests compile and
// pass.
func TestGeneralAnyPackageTypes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "anyreflect"), "-json", "-cache=false", "-max-time", "60s", "./...")
	if code != exitOK {
		t.Fatalf("exit code %d, want %d\n%s\n%s", code, exitOK, stdout, stderr)
	}
	if _, ok := targetResults[ifaceSummary](t, stdout)["Describe"]; !ok {
		t.Fatalf("no summary of Describe\n%s", stdout)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "describe_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`v: +Point\{X: -?\d+, Y: -?\d+.*want: +"two encoded fields"`),
		regexp.MustCompile(`v: +&dowseStringer\{`),
		regexp.MustCompile(`want: +"long"`),
		regexp.MustCompile(`want: +"short"`),
	} {
		if !want.MatchString(string(gen)) {
			t.Errorf("the generated file has no row matching %s\n%s", want, gen)
		}
	}
	generatedTestsPass(t, dir)
}

// Values of the package's own types converted to an interface keep the
// shadows of their fields: through a method called on the interface
// (Tally: only a 3 by 4 Rect, or a 4 by 3 one, has an area of 12, behind
// which a write to a nil map panics), through a comma-ok assertion and a
// type switch back to the type (Width), and as an error carrying data
// (Retry: a StatusError of code 503). Each target is explored
// exhaustively, with no value lost at the conversions, and the rows
// compile and pass.
func TestGeneralBoxedKeepShadows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and explores a module")
	}
	code, stdout, stderr, dir := runGenIn(t, general(t, "boxed"), "-json", "-cache=false", "-max-time", "60s", "./...")
	if code != exitFindings {
		t.Fatalf("exit code %d, want %d (the panic found)\n%s\n%s", code, exitFindings, stdout, stderr)
	}
	got := summaries(t, stdout)
	for _, target := range []string{"Tally", "Width", "Retry"} {
		if s, ok := got[target]; !ok || !s.Exhaustive {
			t.Errorf("%s: not explored exhaustively\n%s", target, stdout)
		}
	}
	found := false
	for _, f := range got["Tally"].Failures {
		found = found || strings.Contains(string(f), "assignment to entry in nil map")
	}
	if !found {
		t.Errorf("Tally: the nil map write behind an area of 12 is not found\n%s", stdout)
	}
	gen, err := os.ReadFile(filepath.Join(dir, "geom_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile(filepath.Join(dir, "status_dowse_auto_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]*regexp.Regexp{
		"geom":   regexp.MustCompile(`want: +"landscape"(.|\n)*want: +"nine"|want: +"nine"(.|\n)*want: +"landscape"`),
		"status": regexp.MustCompile(`code: +503, want: +true`),
	} {
		src := string(gen)
		if file == "status" {
			src = string(status)
		}
		if !want.MatchString(src) {
			t.Errorf("the generated %s file has no rows matching %s\n%s", file, want, src)
		}
	}
	generatedTestsPass(t, dir)
}
