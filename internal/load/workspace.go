package load

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// workspace returns the go.work file the go command would use in dir
// with environment env ("" if none, or GOWORK=off), and whether dir is
// inside a module when go.work is ignored.
func workspace(env []string, dir string) (gowork string, inModule bool, err error) {
	goEnv := func(env []string, name string) (string, error) {
		cmd := exec.Command("go", "env", name)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("go env %s: %w", name, err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	gowork, err = goEnv(env, "GOWORK")
	if err != nil || gowork == "" || gowork == "off" {
		return "", false, err
	}
	gomod, err := goEnv(append(env[:len(env):len(env)], "GOWORK=off"), "GOMOD")
	if err != nil {
		return "", false, err
	}
	return gowork, gomod != "" && gomod != os.DevNull, nil
}

// workspaceError says that dowse cannot run on a workspace from outside
// its modules, and how to run it in one of them.
func workspaceError(gowork string) error {
	example := "<module>"
	if data, err := os.ReadFile(gowork); err == nil {
		if wf, err := modfile.ParseWork(gowork, data, nil); err == nil && len(wf.Use) > 0 {
			example = wf.Use[0].Path
		}
	}
	return fmt.Errorf("%s: workspaces are not supported (dowse builds each module with a temporary go.mod, which workspace mode refuses): run dowse in one of its modules (cd %s && dowse gen ./...), where it ignores go.work as GOWORK=off does",
		gowork, filepath.ToSlash(example))
}

// workspaceNote says that go.work is ignored in a module of a workspace.
func workspaceNote(gowork string) string {
	return fmt.Sprintf("note: %s is ignored (as with GOWORK=off): this module is built on its own, its imports of the workspace's other modules resolved through its go.mod (require and replace)", gowork)
}
