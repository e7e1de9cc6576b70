// Package cfg reads "key=value" settings files.
package cfg

import (
	"os"
	"strings"
)

// Load reads the settings of the file at path: one "key=value" a line,
// "#" comments and blank lines skipped.
func Load(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		eq := strings.IndexByte(line, '=')
		key := line[:eq] // a line without "=" has eq == -1
		out[key] = line[eq+1:]
	}
	return out, nil
}
