package emit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The functions of kept targets survive, methods (TestDowseType_Method)
// included; those of other targets do not.
func TestKeptFuncs(t *testing.T) {
	dir := t.TempDir()
	src := Header + `

package p

import "testing"

func TestDowseNew(t *testing.T) {}

func TestDowseStore_Get(t *testing.T) {}

func TestDowseStore_GetFailures(t *testing.T) {}

func TestDowseStore_Put(t *testing.T) {}
`
	if err := os.WriteFile(filepath.Join(dir, "p_dowse_auto_test.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	k, err := keptFuncs(dir, "p_dowse_auto_test.go", []string{"New", "Store.Get"}, namer{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fn := range k.funcs {
		got = append(got, strings.Fields(string(fn))[1])
	}
	if want := "TestDowseNew(t TestDowseStore_Get(t TestDowseStore_GetFailures(t"; strings.Join(got, " ") != want {
		t.Errorf("kept %v, want %s", got, want)
	}
}
