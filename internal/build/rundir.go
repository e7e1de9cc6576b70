package build

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// maxRunDirBytes bounds the copy of a package directory that workers run
// in. A larger directory is not copied: workers then run in the package
// directory itself, and dowse says so.
const maxRunDirBytes = 256 << 20

// errRunDirTooLarge reports a package directory above maxRunDirBytes.
var errRunDirTooLarge = errors.New("package directory too large to copy")

// runDir makes the directory the workers of a package run in: a copy of
// the package directory's files and of its testdata tree, so that code
// under test that writes relative paths writes into the copy, not next to
// the user's sources (go test runs tests in the package directory, and so
// do workers, in this copy). Symbolic links are followed when they name
// regular files and left out otherwise; other subdirectories (other
// packages) are not copied.
func (w *Work) runDir(pkgDir string) (string, error) {
	dst := filepath.Join(w.Dir, "run", strconv.Itoa(w.n), filepath.Base(pkgDir))
	budget := int64(maxRunDirBytes)
	err := filepath.WalkDir(pkgDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(pkgDir, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if rel != "." && filepath.Dir(rel) == "." && d.Name() != "testdata" {
				return fs.SkipDir
			}
			return os.MkdirAll(target, 0o777)
		}
		info, err := os.Stat(p) // follows symbolic links
		if err != nil || !info.Mode().IsRegular() {
			return nil // a dangling link, a socket, a link to a directory
		}
		if budget -= info.Size(); budget < 0 {
			return errRunDirTooLarge
		}
		return copyFile(p, target, info.Mode().Perm())
	})
	if err != nil {
		return "", fmt.Errorf("copying %s for the workers: %w", pkgDir, err)
	}
	return dst, nil
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
