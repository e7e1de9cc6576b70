package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/dowse-go/dowse/internal/golden"

	"golang.org/x/tools/go/packages"

	"github.com/dowse-go/dowse/internal/load"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestRewriteGoMod(t *testing.T) {
	ins, err := filepath.Glob("testdata/gomod/*.in")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			out, err := RewriteGoMod(in, data, "/work/rtmod")
			if err != nil {
				t.Fatal(err)
			}
			// Relative replacements become absolute: the golden file
			// names the input's directory $DIR.
			dir, err := filepath.Abs(filepath.Dir(in))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.ReplaceAll(string(out), dir, "$DIR")
			checkGolden(t, strings.TrimSuffix(in, ".in")+".golden", got)
		})
	}
}

func TestBinaryName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"example.com/a/b", "example_com_a_b.test"},
		{"x", "x.test"},
		{"a-b/c~d", "a_b_c_d.test"},
	} {
		if got := binaryName(tt.in); got != tt.want {
			t.Errorf("binaryName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// answer43 is an instrumenter that changes Answer to return 43, to show
// that the overlay is used.
type answer43 struct{ saw []string }

func (a *answer43) Instrument(pkgs []*packages.Package) (map[string][]byte, []Site, error) {
	files := map[string][]byte{}
	for _, p := range pkgs {
		a.saw = append(a.saw, p.ID)
		for _, f := range p.CompiledGoFiles {
			if filepath.Base(f) != "p.go" {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			files[f] = bytes.Replace(src, []byte("return 42"), []byte("return 43"), 1)
		}
	}
	return files, []Site{{ID: 2}, {ID: 1}}, nil
}

func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir := copyTree(t, "testdata/mod")
	before := hashTree(t, dir)

	pkgs, _, err := load.Load(load.Config{Dir: dir}, "./p")
	if err != nil {
		t.Fatal(err)
	}
	p := pkgs[0]
	w, err := NewWork(false)
	if err != nil {
		t.Fatal(err)
	}
	ins := &answer43{}
	bin, err := w.Build(context.Background(), Config{Instrumenter: ins}, p, p.Targets)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ins.saw); got != "[example.com/mod/p [example.com/mod/p.test] example.com/mod/p_test [example.com/mod/p.test]]" {
		t.Errorf("instrumented variants %s", got)
	}
	if bin.Sites[0].ID != 1 || bin.Sites[1].ID != 2 {
		t.Errorf("sites not sorted: %v", bin.Sites)
	}
	if got, want := fmt.Sprint(bin.Harness), "map[PutAbs:TestDowseWorker PutAbsX:TestDowseWorkerX]"; got != want {
		t.Errorf("harness = %s, want %s", got, want)
	}

	// The harness sources, as the overlay has them.
	for _, name := range []string{"zz_dowse_worker_test.go", "zz_dowse_worker_x_test.go"} {
		matches, _ := filepath.Glob(filepath.Join(w.Dir, "overlay", "*", "*", name))
		if len(matches) != 1 {
			t.Fatalf("harness %s: found %v", name, matches)
		}
		src, err := os.ReadFile(matches[0])
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("testdata", name+".golden"), string(src))
	}

	// Outside a worker the harness skips; the overlay changed Answer.
	cmd := exec.Command(bin.Path, "-test.v", "-test.run=^(TestDowseWorker|TestDowseWorkerX|TestAnswer)$")
	cmd.Dir = p.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the test binary: %v\n%s", err, out)
	}
	for _, want := range []string{"--- SKIP: TestDowseWorker ", "--- SKIP: TestDowseWorkerX ", "answer 43"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	fuzz := p.Targets[len(p.Targets)-1]
	cmdFuzz, ok := bin.Worker(fuzz)
	if !ok || fmt.Sprint(cmdFuzz.Args, cmdFuzz.Env) != "[-test.run=^FuzzAbs$] [DOWSE_WORKER=1 DOWSE_FUZZ=FuzzAbs]" {
		t.Errorf("fuzz worker: %v %v %v", ok, cmdFuzz.Args, cmdFuzz.Env)
	}
	cmdPut, ok := bin.Worker(p.Targets[0])
	if !ok || fmt.Sprint(cmdPut.Args, cmdPut.Env) != "[-test.run=^TestDowseWorker$] [DOWSE_WORKER=1 DOWSE_TARGETS=PutAbs]" || cmdPut.Dir != bin.RunDir || filepath.Base(cmdPut.Dir) != filepath.Base(p.Dir) || cmdPut.Dir == p.Dir {
		t.Errorf("PUT worker: %v %v %v %v", ok, cmdPut.Args, cmdPut.Env, cmdPut.Dir)
	}
	if _, ok := bin.Worker(p.Targets[1]); ok {
		t.Errorf("a worker for the unsupported %s", p.Targets[1].Name)
	}

	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Errorf("work directory not removed: %v", err)
	}
	if after := hashTree(t, dir); after != before {
		t.Errorf("the user's tree changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestBuildInstrumentModule checks that -instrument-module hands the
// module's other imported packages to the instrumenter, and the real
// instrumenter's output builds.
func TestBuildInstrumentModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	dir := copyTree(t, "testdata/multi")
	pkgs, _, err := load.Load(load.Config{Dir: dir, Deps: true}, "./p")
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWork(false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ins := &recorder{next: &SourceInstrumenter{}}
	bin, err := w.Build(context.Background(), Config{Instrumenter: ins, InstrumentModule: true}, pkgs[0], pkgs[0].Targets)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ins.saw); got != "[example.com/multi/p example.com/multi/q]" {
		t.Errorf("instrumented %s", got)
	}
	if len(bin.Sites) == 0 {
		t.Errorf("no branch sites")
	}
}

// recorder records the package paths it instruments.
type recorder struct {
	next Instrumenter
	saw  []string
}

func (r *recorder) Instrument(pkgs []*packages.Package) (map[string][]byte, []Site, error) {
	for _, p := range pkgs {
		r.saw = append(r.saw, p.PkgPath)
	}
	return r.next.Instrument(pkgs)
}

// TestBuildError: a build failure of instrumented code is reported with
// the compiler's output; the work directory is removed at Close like any
// other unless it was to be kept (-keep-work), and the message says where
// it is only when it is kept.
func TestBuildError(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := copyTree(t, "testdata/mod")
	pkgs, _, err := load.Load(load.Config{Dir: dir}, "./p")
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep=%v", keep), func(t *testing.T) {
			w, err := NewWork(keep)
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(w.Dir)
			_, err = w.Build(context.Background(), Config{Instrumenter: breaker{}}, pkgs[0], pkgs[0].Targets)
			berr, ok := err.(*Error)
			if !ok {
				t.Fatalf("Build: got %v, want *Error", err)
			}
			if !strings.Contains(berr.Output, "p.go") {
				t.Errorf("build error without the compiler's output:\n%v", err)
			}
			if strings.Contains(err.Error(), "work directory kept at "+w.Dir) != keep || strings.Contains(err.Error(), "-keep-work") == keep {
				t.Errorf("keep=%v, build error:\n%v", keep, err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(w.Dir); (err == nil) != keep {
				t.Errorf("keep=%v: after Close, stat of the work directory: %v", keep, err)
			}
		})
	}
}

// breaker produces code that does not compile.
type breaker struct{}

func (breaker) Instrument(pkgs []*packages.Package) (map[string][]byte, []Site, error) {
	for _, f := range pkgs[0].CompiledGoFiles {
		if filepath.Base(f) == "p.go" {
			return map[string][]byte{f: []byte("package p\n\nfunc Answer() int { return \"x\" }\n")}, nil, nil
		}
	}
	return nil, nil, nil
}

// copyTree copies the directory src to a new temporary directory.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o777)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// hashTree hashes the names, modes and contents of all files below dir.
func hashTree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", path, info.Mode())
		if !d.IsDir() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return fmt.Sprintf("%x", sha256.Sum256([]byte(strings.Join(lines, "\n"))))
}

func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	golden.Check(t, file, got, *update)
}

// TestRewriteGoModRelativeReplaces checks that replacements by relative
// directories become absolute, relative to the go.mod's directory, and
// that the others are left as they are: the go command resolves relative
// ones from the module root, and dowse test builds in a copy of the
// module.
func TestRewriteGoModRelativeReplaces(t *testing.T) {
	const file = "/home/u/app/go.mod"
	tests := []struct {
		name, replace, want string
	}{
		{"parent", "example.com/x => ../x", "example.com/x => /home/u/x"},
		{"below", "example.com/y => ./third_party/y", "example.com/y => /home/u/app/third_party/y"},
		{"versioned", "example.com/v v1.2.3 => ../v", "example.com/v v1.2.3 => /home/u/v"},
		{"absolute", "example.com/z => /opt/z", "example.com/z => /opt/z"},
		{"module", "example.com/w => example.com/w2 v1.0.0", "example.com/w => example.com/w2 v1.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, module := range []string{"example.com/app", RuntimeModule} {
				data := []byte("module " + module + "\n\ngo 1.22\n\nreplace " + tt.replace + "\n")
				out, err := RewriteGoMod(file, data, "/work/rtmod")
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(out), "replace "+tt.want+"\n") {
					t.Errorf("module %s: replace %s: got\n%s\nwant replace %s", module, tt.replace, out, tt.want)
				}
			}
		})
	}
}
