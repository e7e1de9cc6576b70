package build

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestVendored: the module mode is the go command's: -mod from GOFLAGS
// first, else vendor mode for a module with a vendor directory and a go
// line of at least 1.14.
func TestVendored(t *testing.T) {
	tests := []struct {
		name    string
		goLine  string
		vendor  bool
		goflags string
		want    bool
	}{
		{"vendor dir", "go 1.22", true, "", true},
		{"no vendor dir", "go 1.22", false, "", false},
		{"old go line", "go 1.13", true, "", false},
		{"no go line", "", true, "", false},
		{"GOFLAGS mod", "go 1.22", true, "-mod=mod", false},
		{"GOFLAGS readonly", "go 1.22", true, "-mod=readonly", false},
		{"GOFLAGS vendor", "go 1.13", true, "-mod=vendor", true},
		{"GOFLAGS last wins", "go 1.22", false, "-mod=mod --mod=vendor", true},
		{"GOFLAGS other flags", "go 1.22", true, "-tags=x -modcacherw", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			gomod := filepath.Join(dir, "go.mod")
			if err := os.WriteFile(gomod, []byte("module example.com/m\n\n"+tt.goLine+"\n"), 0o666); err != nil {
				t.Fatal(err)
			}
			if tt.vendor {
				if err := os.MkdirAll(filepath.Join(dir, "vendor"), 0o777); err != nil {
					t.Fatal(err)
				}
			}
			env := append(os.Environ(), "GOFLAGS="+tt.goflags)
			got, err := Vendored(context.Background(), env, dir, gomod)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Vendored = %v, want %v", got, tt.want)
			}
		})
	}
}
