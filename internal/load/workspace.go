package load

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// workspaceHint says how to name the packages of a go.work workspace when
// dir is its root outside all of its modules, where the go command
// matches `./...` in no module; "" otherwise.
func workspaceHint(env []string, dir string) string {
	cmd := exec.Command("go", "env", "GOWORK", "GOMOD")
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return ""
	}
	gowork, gomod := strings.TrimSpace(lines[0]), strings.TrimSpace(lines[1])
	if gowork == "" || gowork == "off" || (gomod != "" && gomod != os.DevNull) {
		return ""
	}
	data, err := os.ReadFile(gowork)
	if err != nil {
		return ""
	}
	wf, err := modfile.ParseWork(gowork, data, nil)
	if err != nil {
		return ""
	}
	base, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	var pats []string
	for _, u := range wf.Use {
		mod := u.Path
		if !filepath.IsAbs(mod) {
			mod = filepath.Join(filepath.Dir(gowork), filepath.FromSlash(mod))
		}
		rel, err := filepath.Rel(base, mod)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		pats = append(pats, "./"+filepath.ToSlash(rel)+"/...")
	}
	if len(pats) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: at a workspace's root, outside its modules, go matches no package with ./...: name its modules (dowse gen %s), as for go test", gowork, strings.Join(pats, " "))
}
