package build

import (
	"context"
	"fmt"
	"go/version"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// Vendored reports whether the go command builds the module whose root
// is dir (go.mod at goMod) from its vendor directory, as it decides: the
// -mod flag of GOFLAGS (the environment env, nil meaning os.Environ(),
// or the go env file) if it has one, otherwise vendor mode when the
// module has a vendor directory and its go line says at least 1.14.
func Vendored(ctx context.Context, env []string, dir, goMod string) (bool, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOFLAGS")
	cmd.Dir = dir
	cmd.Env = withEnv(env, "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("go env GOFLAGS: %w", err)
	}
	if mode, ok := modFlag(string(out)); ok {
		return mode == "vendor", nil
	}
	if fi, err := os.Stat(filepath.Join(dir, "vendor")); err != nil || !fi.IsDir() {
		return false, nil
	}
	data, err := os.ReadFile(goMod)
	if err != nil {
		return false, fmt.Errorf("reading go.mod: %w", err)
	}
	f, err := modfile.ParseLax(goMod, data, nil)
	if err != nil {
		return false, fmt.Errorf("parsing %s: %w", goMod, err)
	}
	return f.Go != nil && version.Compare("go"+f.Go.Version, "go1.14") >= 0, nil
}

// modFlag returns the value of the last -mod flag in goflags (GOFLAGS:
// flags separated by spaces, each -flag=value or --flag=value).
func modFlag(goflags string) (string, bool) {
	mode, ok := "", false
	for _, f := range strings.Fields(goflags) {
		f = strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-")
		if v, found := strings.CutPrefix(f, "mod="); found {
			mode, ok = v, true
		}
	}
	return mode, ok
}

// vendorRuntime adds the runtime package to the overlay as if it were
// vendored in the module whose root is modDir: in vendor mode the go
// command resolves imports from the vendor directory alone and checks it
// against go.mod, so the runtime can be neither required nor replaced.
// The files are those WriteModule wrote to the work directory.
func (w *Work) vendorRuntime(modDir string, overlay map[string]string) error {
	src := filepath.Join(w.Dir, "rtmod", "rt")
	entries, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("vendoring the runtime: %w", err)
	}
	dst := filepath.Join(modDir, "vendor", filepath.FromSlash(RuntimeImport))
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("vendoring the runtime: %s already exists", dst)
	}
	for _, e := range entries {
		overlay[filepath.Join(dst, e.Name())] = filepath.Join(src, e.Name())
	}
	return nil
}

// VendorRuntime writes the runtime package into the vendor directory of
// the module whose root is modDir (a copy of the user's module: dowse
// test runs go test there), so that the module builds with -mod=vendor.
// WriteModule must have written the runtime first.
func (w *Work) VendorRuntime(modDir string) error {
	files := map[string]string{}
	if err := w.vendorRuntime(modDir, files); err != nil {
		return err
	}
	for dst, src := range files {
		data, err := os.ReadFile(src)
		if err != nil {
			return fmt.Errorf("vendoring the runtime: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
			return fmt.Errorf("vendoring the runtime: %w", err)
		}
		if err := os.WriteFile(dst, data, 0o666); err != nil {
			return fmt.Errorf("vendoring the runtime: %w", err)
		}
	}
	return nil
}
