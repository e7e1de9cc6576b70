package build

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// Workspace returns the go.work file the go command run in dir with env
// (nil: os.Environ()) uses, as `go env GOWORK` says: "" when there is
// none or GOWORK=off.
func Workspace(ctx context.Context, env []string, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOWORK")
	cmd.Dir = dir
	cmd.Env = withEnv(env)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOWORK: %w", err)
	}
	gowork := strings.TrimSpace(string(out))
	if gowork == "off" {
		return "", nil
	}
	return gowork, nil
}

// writeWorkspace writes the work go.work (and go.work.sum) from the
// user's go.work file gowork: the go command refuses -modfile in
// workspace mode, so the runtime module joins the workspace instead
// (RewriteGoWork), and builds run with GOWORK set to the copy.
func (w *Work) writeWorkspace(gowork, rtmod string) error {
	data, err := os.ReadFile(gowork)
	if err != nil {
		return fmt.Errorf("reading go.work: %w", err)
	}
	out, err := RewriteGoWork(gowork, data, rtmod, w.copies...)
	if err != nil {
		return err
	}
	dst := filepath.Join(w.Dir, "go.work")
	if err := os.WriteFile(dst, out, 0o666); err != nil {
		return fmt.Errorf("writing go.work: %w", err)
	}
	sum, err := os.ReadFile(gowork + ".sum")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading go.work.sum: %w", err)
	}
	if err := os.WriteFile(dst+".sum", sum, 0o666); err != nil {
		return fmt.Errorf("writing go.work.sum: %w", err)
	}
	w.gowork = dst
	return nil
}

// RewriteGoWork returns the go.work data (read from file) with its use
// directives and replacements by directories made absolute (relative to
// file's directory: the copy lives in the work directory), a use of the
// runtime module in rtDir, and a replace of each of copies (any version)
// by its Copy. If the workspace already uses the runtime module (dowse's
// own repository), it is not added again.
func RewriteGoWork(file string, data []byte, rtDir string, copies ...*Module) ([]byte, error) {
	f, err := modfile.ParseWork(file, data, nil)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", file, err)
	}
	base, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("rewriting %s: %w", file, err)
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(base, filepath.FromSlash(p))
	}
	hasRuntime := false
	var uses []string
	for _, u := range f.Use {
		dir := abs(u.Path)
		uses = append(uses, dir)
		if modulePath(filepath.Join(dir, "go.mod")) == RuntimeModule {
			hasRuntime = true
		}
	}
	old := append([]*modfile.Use(nil), f.Use...)
	for _, u := range old {
		if err := f.DropUse(u.Path); err != nil {
			return nil, fmt.Errorf("rewriting %s: %w", file, err)
		}
	}
	for i, u := range old {
		f.AddNewUse(uses[i], u.ModulePath)
	}
	if !hasRuntime {
		f.AddNewUse(rtDir, "")
	}
	var rel []*modfile.Replace
	for _, r := range f.Replace {
		if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) && !filepath.IsAbs(r.New.Path) {
			rel = append(rel, r)
		}
	}
	for _, r := range rel {
		if err := f.AddReplace(r.Old.Path, r.Old.Version, abs(r.New.Path), ""); err != nil {
			return nil, fmt.Errorf("rewriting %s: %w", file, err)
		}
	}
	for _, m := range copies {
		for _, r := range append([]*modfile.Replace(nil), f.Replace...) {
			if r.Old.Path == m.Path {
				if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
					return nil, fmt.Errorf("rewriting %s: %w", file, err)
				}
			}
		}
		if err := f.AddReplace(m.Path, "", m.Copy, ""); err != nil {
			return nil, fmt.Errorf("rewriting %s: %w", file, err)
		}
	}
	f.Cleanup()
	return bytes.TrimLeft(modfile.Format(f.Syntax), "\n"), nil
}

// modulePath returns the module path declared by the go.mod file at
// goMod, or "" if it cannot be read.
func modulePath(goMod string) string {
	data, err := os.ReadFile(goMod)
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
