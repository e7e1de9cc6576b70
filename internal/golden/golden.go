// Package golden compares the output of tests with golden files.
package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the content of file and reports a mismatch; with
// update set it writes got to file instead (tests expose it as -update).
func Check(t testing.TB, file, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run the test with its update flag to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s mismatch:\n--- got\n%s--- want\n%s", file, got, want)
	}
}
