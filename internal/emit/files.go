package emit

import (
	"bytes"
	"errors"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// generatedName names the generated file for a source test file: "dowse"
// is inserted before "_test.go" and before any _GOOS, _GOARCH or
// _GOOS_GOARCH suffix, so the file keeps the source's implicit build
// constraint: put_test.go → put_dowse_test.go, io_linux_test.go →
// io_dowse_linux_test.go.
//
// The automatic targets of a source file that is not a test are generated
// into <name>_dowse_auto_test.go: shapes.go → shapes_dowse_auto_test.go.
func generatedName(source string) (string, error) {
	if filepath.Base(source) != source || !strings.HasSuffix(source, ".go") {
		return "", fmt.Errorf("source file %q is not the base name of a Go file", source)
	}
	mark := []string{"dowse"}
	stem := strings.TrimSuffix(source, "_test.go")
	if !strings.HasSuffix(source, "_test.go") {
		stem = strings.TrimSuffix(source, ".go")
		mark = []string{"dowse", "auto"}
	}
	parts := strings.Split(stem, "_")
	// As in go/build, the first element never is a constraint.
	k := 0
	n := len(parts)
	switch {
	case n >= 3 && knownOS[parts[n-2]] && knownArch[parts[n-1]]:
		k = 2
	case n >= 2 && (knownOS[parts[n-1]] || knownArch[parts[n-1]]):
		k = 1
	}
	out := append([]string{}, parts[:n-k]...)
	out = append(out, mark...)
	out = append(out, parts[n-k:]...)
	return strings.Join(out, "_") + "_test.go", nil
}

// GeneratedNames are the names of the generated test files for the
// source file source (the ordinary and the isolated one), or nil if
// source is not the base name of a Go file.
func GeneratedNames(source string) []string {
	name, err := generatedName(source)
	if err != nil {
		return nil
	}
	return []string{name, isolatedName(name)}
}

// isolatedName is the name of the isolated file beside the generated
// file name.
func isolatedName(name string) string {
	return strings.TrimSuffix(name, "_test.go") + "_isolated_test.go"
}

var knownOS = setOf("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")

var knownArch = setOf("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// buildConstraint returns the //go:build line of the source file, or "".
// A file with only "// +build" lines (which the go command still honours
// in a file without a //go:build line) gets the //go:build line they
// stand for.
func buildConstraint(dir, source string) (string, error) {
	name := filepath.Join(dir, source)
	src, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("reading build constraints: %w", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return "", fmt.Errorf("reading build constraints: %w", err)
	}
	var plus constraint.Expr
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if constraint.IsGoBuild(c.Text) {
				return strings.TrimSpace(c.Text), nil
			}
			if cg == f.Doc || !constraint.IsPlusBuild(c.Text) {
				continue // a +build line in the package's doc comment is not one
			}
			x, err := constraint.Parse(c.Text)
			if err != nil {
				return "", fmt.Errorf("reading build constraints of %s: %w", name, err)
			}
			if plus == nil {
				plus = x
			} else {
				plus = &constraint.AndExpr{X: plus, Y: x} // several lines: all must hold
			}
		}
	}
	if plus != nil {
		return "//go:build " + plus.String(), nil
	}
	return "", nil
}

// commit puts g on disk under dir.
func (g *generated) commit(dir string, res *Result) error {
	goPath := filepath.Join(dir, g.goFile)
	if g.goSrc != nil {
		changed, err := writeOwned(goPath, g.goSrc, isGenerated)
		if err != nil {
			return err
		}
		res.Files = append(res.Files, goPath)
		if changed {
			res.Changed = append(res.Changed, goPath)
		}
	} else {
		removed, err := removeOwned(goPath, isGenerated)
		if err != nil {
			return err
		}
		if removed {
			res.Removed = append(res.Removed, goPath)
		}
	}

	dirs := make([]string, 0, len(g.corpus))
	for d := range g.corpus {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		if err := commitCorpus(filepath.Join(dir, filepath.FromSlash(d)), g.corpus[d], res); err != nil {
			return err
		}
	}
	return nil
}

// commitCorpus makes dowse's files in corpus directory dir exactly files.
func commitCorpus(dir string, files map[string][]byte, res *Result) error {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading corpus: %w", err)
	}
	removedAll := len(entries) > 0
	for _, e := range entries {
		name := e.Name()
		if _, keep := files[name]; keep {
			removedAll = false
			continue
		}
		if !strings.HasPrefix(name, CorpusPrefix) || !e.Type().IsRegular() {
			removedAll = false
			continue
		}
		p := filepath.Join(dir, name)
		removed, err := removeOwned(p, isCorpus)
		if err != nil {
			return err
		}
		if removed {
			res.Removed = append(res.Removed, p)
		} else {
			removedAll = false
		}
	}
	if len(files) == 0 {
		if removedAll {
			// The directory held only dowse's files; remove it too.
			// Failure to do so is harmless.
			_ = os.Remove(dir)
		}
		return nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("creating corpus directory: %w", err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, n)
		changed, err := writeOwned(p, files[n], isCorpus)
		if err != nil {
			return err
		}
		res.Files = append(res.Files, p)
		if changed {
			res.Changed = append(res.Changed, p)
		}
	}
	return nil
}

// isGenerated reports whether content is a Go file dowse generated.
func isGenerated(content []byte) bool {
	return bytes.HasPrefix(content, []byte(Header+"\n"))
}

// isCorpus reports whether content is in Go's corpus format.
func isCorpus(content []byte) bool {
	return bytes.HasPrefix(content, []byte(corpusVersion+"\n"))
}

// writeOwned writes content to name atomically, unless the file exists
// with the same content (changed is false then). An existing file for
// which owned is false is an error.
func writeOwned(name string, content []byte, owned func([]byte) bool) (changed bool, err error) {
	old, err := os.ReadFile(name)
	switch {
	case err == nil:
		if bytes.Equal(old, content) {
			return false, nil
		}
		if !owned(old) {
			return false, fmt.Errorf("refusing to overwrite %s: it was not generated by dowse", name)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	if err := writeAtomic(name, content); err != nil {
		return false, err
	}
	return true, nil
}

// removeOwned removes name if it exists and owned says it is dowse's.
func removeOwned(name string, owned func([]byte) bool) (bool, error) {
	old, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !owned(old) {
		return false, nil
	}
	if err := os.Remove(name); err != nil {
		return false, err
	}
	return true, nil
}

// writeAtomic writes content to a temporary file beside name and renames
// it to name, so readers see either the old or the new content.
func writeAtomic(name string, content []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(content); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
