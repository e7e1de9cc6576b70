package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/dowse-go/dowse/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestWrite renders the stream testdata/<case>/stream.json with the
// sources beside it and compares the page with testdata/<case>/report.html:
// basic is a real run of dowse gen -auto on testdata/report/basic, whose
// sources it renders; reasons has every reason an outcome may not be
// covered, two packages, a target not explored and sources that are
// missing.
func TestWrite(t *testing.T) {
	for _, tc := range []struct{ name, sources string }{
		{"basic", filepath.Join("..", "..", "testdata", "report", "basic")},
		{"reasons", filepath.Join("testdata", "reasons")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", tc.name)
			f, err := os.Open(filepath.Join(dir, "stream.json"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			targets, err := ReadStream(f)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Write(&b, targets, Options{Dir: tc.sources}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join(dir, "report.html"), b.String(), *update)
		})
	}
}

// TestReadStreamError checks that a stream that is not JSON is an error
// naming the target it stopped at.
func TestReadStreamError(t *testing.T) {
	_, err := ReadStream(bytes.NewBufferString("{\"target\": \"A\"}\n{oops"))
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("target 2")) {
		t.Errorf("error %v, want one about target 2", err)
	}
}
