package emit

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/rt"
)

var update = flag.Bool("update", false, "rewrite the golden files of the emit tests")

// A scenario (testdata/scenarios/NAME/spec.json) names packages to
// type-check, the source test file and its targets' rows; the expected
// output is testdata/scenarios/NAME/golden/: every file that Write created
// or changed in a copy of the source file's directory, and result.txt with
// the Result and error.
type scenario struct {
	Packages []struct{ Path, Dir string }
	Dir      string // directory of the source test file, copied to a temporary one
	Pkg      string // path of the source test file's package
	Source   string
	MaxLen   int
	Options  Options
	Targets  []struct {
		Name string
		Rows []struct {
			Status   string
			In       []any
			Messages []string
			PanicAt  string
			Path     string
		}
	}
}

var statuses = map[string]rt.Status{
	"pass": rt.StatusPass, "skip": rt.StatusSkip, "fail": rt.StatusFail, "panic": rt.StatusPanic,
	"exit": rt.StatusExit, "timeout": rt.StatusTimeout, "bound": rt.StatusBound,
}

func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob("testdata/scenarios/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { runScenario(t, dir) })
	}
}

// loadScenario reads a scenario and builds its File for directory out.
func loadScenario(t *testing.T, dir, out string) (File, Options) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "spec.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sc scenario
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		t.Fatalf("spec.json: %v", err)
	}
	u := newUniverse()
	for _, p := range sc.Packages {
		u.load(t, filepath.Join(dir, p.Dir), p.Path)
	}
	f := File{Pkg: u.pkgs[sc.Pkg], Dir: out, SourceFile: sc.Source}
	if f.Pkg == nil {
		t.Fatalf("package %s not loaded", sc.Pkg)
	}
	for _, st := range sc.Targets {
		params, variadic, fuzz := u.params(t, sc.Pkg, st.Name)
		tg := Target{Name: st.Name, Fuzz: fuzz, Params: params, Variadic: variadic, Layout: layout(t, params, sc.MaxLen, f.Pkg, u.underTest(f.Pkg))}
		leaves := leavesOf(t, tg.Layout)
		for _, sr := range st.Rows {
			status, ok := statuses[sr.Status]
			if !ok {
				t.Fatalf("unknown status %q", sr.Status)
			}
			for i, x := range sr.In {
				// {"q": "Go string literal"} stands for a string JSON cannot hold.
				if m, ok := x.(map[string]any); ok {
					s, err := strconv.Unquote(m["q"].(string))
					if err != nil {
						t.Fatal(err)
					}
					sr.In[i] = s
				}
			}
			tg.Rows = append(tg.Rows, Row{
				Inputs:        values(t, leaves, sr.In),
				Status:        status,
				Messages:      sr.Messages,
				PanicAt:       sr.PanicAt,
				PathCondition: sr.Path,
			})
		}
		f.Targets = append(f.Targets, tg)
	}
	copyTree(t, filepath.Join(dir, sc.Dir), out)
	return f, sc.Options
}

func runScenario(t *testing.T, dir string) {
	out := t.TempDir()
	f, opts := loadScenario(t, dir, out)
	before := readTree(t, out)
	res, err := Write(f, opts)
	got := map[string]string{}
	for name, content := range readTree(t, out) {
		if before[name] != content {
			got[name] = content
		}
	}
	got["result.txt"] = describe(res, err, out)

	// Writing again changes nothing.
	res2, err2 := Write(f, opts)
	if len(res2.Changed) != 0 || len(res2.Removed) != 0 || fmt.Sprint(err2) != fmt.Sprint(err) {
		t.Errorf("second Write: changed %v, removed %v, err %v", res2.Changed, res2.Removed, err2)
	}

	golden := filepath.Join(dir, "golden")
	if *update {
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		for name, content := range got {
			p := filepath.Join(golden, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := readTree(t, golden)
	for name, content := range want {
		if got[name] != content {
			t.Errorf("%s differs from golden (run with -update to accept)\n--- got:\n%s\n--- want:\n%s", name, got[name], content)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("unexpected output %s:\n%s", name, got[name])
		}
	}
}

// describe renders a Result and error with paths relative to dir.
func describe(res Result, err error, dir string) string {
	var b strings.Builder
	rel := func(p string) string {
		r, _ := filepath.Rel(dir, p)
		return filepath.ToSlash(r)
	}
	for _, l := range []struct {
		name  string
		paths []string
	}{{"file", res.Files}, {"changed", res.Changed}, {"removed", res.Removed}} {
		for _, p := range l.paths {
			fmt.Fprintf(&b, "%s %s\n", l.name, rel(p))
		}
	}
	for _, o := range res.Omitted {
		fmt.Fprintf(&b, "omitted %s row %d: %s\n", o.Target, o.Row, o.Reason)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %s\n", strings.ReplaceAll(err.Error(), dir, "$DIR"))
	}
	return b.String()
}

// readTree returns the files under dir by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(r)] = string(data)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	files := readTree(t, from)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(to, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[n]), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}
