package survey

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestSurvey surveys the fixtures and compares the JSON of each package
// with its golden file: testdata/mocks (a type switch and assertions on
// a Store parameter, reflection and a tag read in Level) and the
// survey's own fixture of the other kinds (errors.As, reflection on a
// reflect.Type parameter, assertions on a local that are not counted).
func TestSurvey(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	tests := []struct {
		name, dir string
	}{
		{"mocks", filepath.Join("..", "..", "testdata", "mocks")},
		{"kinds", filepath.Join("testdata", "kinds")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, err := filepath.Abs(tt.dir)
			if err != nil {
				t.Fatal(err)
			}
			pkgs, err := Run(dir, "", "./...")
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(pkgs, "", "\t")
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(want) != string(got)+"\n" {
				t.Errorf("survey of %s:\n%s\nwant:\n%s", tt.dir, got, want)
			}
		})
	}
}
