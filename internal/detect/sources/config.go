package sources

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Config holds user-declared mock sources, read from a JSON file such as
//
//	{
//	  "mockTypes":    ["example.com/app/testutil.FakeDB"],
//	  "mockFuncs":    ["example.com/app/testutil.NewStore"],
//	  "notMockTypes": ["example.com/app/sim.MockClock"]
//	}
//
// or given with the -mock-type and -mock-func flags.
type Config struct {
	// MockTypes are named types ("pkgpath.Name") whose values are mocks;
	// structs embedding them are mock types too.
	MockTypes []string `json:"mockTypes,omitempty"`
	// MockFuncs are functions ("pkgpath.Func", "pkgpath.Type.Method") whose
	// results are mocks.
	MockFuncs []string `json:"mockFuncs,omitempty"`
	// NotMockTypes are named types never to treat as mocks, whatever
	// their shape.
	NotMockTypes []string `json:"notMockTypes,omitempty"`
}

// ReadConfig reads a JSON configuration file.
func ReadConfig(name string) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading mock sources: %w", err)
	}
	var cfg Config
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("reading mock sources from %s: %w", name, err)
	}
	for _, list := range [][]string{cfg.MockTypes, cfg.MockFuncs, cfg.NotMockTypes} {
		for _, q := range list {
			if err := CheckQualified(q); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
	}
	return &cfg, nil
}

// CheckQualified checks the form "pkgpath.Name" (the name after the last
// slash contains a dot).
func CheckQualified(q string) error {
	last := q[strings.LastIndex(q, "/")+1:]
	if !strings.Contains(last, ".") || strings.HasSuffix(q, ".") || strings.HasPrefix(last, ".") {
		return fmt.Errorf("%q is not of the form pkgpath.Name", q)
	}
	return nil
}
