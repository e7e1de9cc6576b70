package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"

	"github.com/dowse-go/dowse/internal/explore/output"
)

// The page's template, style and script, inlined into every page so that
// it needs nothing but itself (no network, no fonts).
var (
	//go:embed report.tmpl
	pageTemplate string
	//go:embed style.css
	style string
	//go:embed script.js
	script string
)

var tmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"css":     func() template.CSS { return template.CSS(style) },
	"js":      func() template.JS { return template.JS(script) },
	"percent": percent,
	"pct":     pct,
}).Parse(pageTemplate))

// percent renders covered of outcomes: "12 of 16 (75%)".
func percent(covered, outcomes int) string {
	if outcomes == 0 {
		return "no branches"
	}
	return fmt.Sprintf("%d of %d (%d%%)", covered, outcomes, pct(covered, outcomes))
}

// pct is covered of outcomes in whole percent, rounded down.
func pct(covered, outcomes int) int {
	if outcomes == 0 {
		return 0
	}
	return covered * 100 / outcomes
}

// Write renders the page of targets to w.
func Write(w io.Writer, targets []*output.Target, opts Options) error {
	var b bytes.Buffer
	if err := tmpl.Execute(&b, build(targets, opts)); err != nil {
		return fmt.Errorf("rendering the report: %w", err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// WriteFile renders the page of targets to the file name, replacing it
// at once: a reader never sees half a page.
func WriteFile(name string, targets []*output.Target, opts Options) (err error) {
	var b bytes.Buffer
	if err := Write(&b, targets, opts); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(b.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}
