package isolate

import (
	"os"
	"strings"
)

// envWithout is the environment without the named variables.
func envWithout(names ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		keep := true
		for _, n := range names {
			keep = keep && !strings.HasPrefix(kv, n+"=")
		}
		if keep {
			env = append(env, kv)
		}
	}
	return env
}
