// Package modcopy prepares what the benchmark commands run on: modules
// from the module proxy copied out of the read-only module cache, and a
// dowse binary built from this repository.
package modcopy

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
)

// Download returns the module cache directory of module@version,
// downloading it if needed.
func Download(module string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v", module, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("go mod download %s: %v", module, err)
	}
	return m.Dir, nil
}

// CopyWritable copies the tree src to dst (replacing dst) with writable
// files: the module cache's are read-only.
func CopyWritable(src, dst string) error {
	os.RemoveAll(dst)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return err
	}
	return filepath.WalkDir(dst, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(path, mode)
	})
}

// BuildDowse builds the dowse command of the repository in the current
// directory to the file out.
func BuildDowse(out string) error {
	if b, err := exec.Command("go", "build", "-o", out, "./cmd/dowse").CombinedOutput(); err != nil {
		return fmt.Errorf("build dowse: %v\n%s", err, b)
	}
	return nil
}

// Workspace makes a temporary work directory named after the benchmark
// and builds dowse into it; it returns the directory and the dowse binary.
// The caller removes the directory.
func Workspace(name string) (work, dowse string, err error) {
	work, err = os.MkdirTemp("", name)
	if err != nil {
		return "", "", err
	}
	dowse = filepath.Join(work, "dowse")
	if err := BuildDowse(dowse); err != nil {
		os.RemoveAll(work)
		return "", "", err
	}
	return work, dowse, nil
}

var failingInput = regexp.MustCompile(`Failing input written to (testdata/fuzz/\w+/\w+)`)

// KeepFuzzCorpus moves the corpus go test -fuzz left in the fuzz cache
// directory cache into pkg/testdata/fuzz/target, and removes the failing
// input go test's output out reports writing there, if any: a failing
// input would end a run that measures the corpus.
func KeepFuzzCorpus(cache, pkg, target string, out []byte) {
	dst := filepath.Join(pkg, "testdata", "fuzz", target)
	os.MkdirAll(dst, 0o755)
	entries, _ := os.ReadDir(cache)
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(cache, e.Name())); err == nil {
			os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644)
		}
	}
	os.RemoveAll(cache)
	if m := failingInput.FindSubmatch(out); m != nil {
		os.Remove(filepath.Join(pkg, string(m[1])))
	}
}
