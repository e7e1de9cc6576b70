package report

import (
	"encoding/json"
	"io"

	"github.com/dowse-go/dowse/internal/detect"
)

// JSONHandler writes one JSON object per line: an "invocation" object per
// call site, a "package" object per package summary, an "error" object per
// package that could not be analysed. As in dowse gen's stream, an object
// with an "error" member reports an error (docs/output.md, "JSON").
type JSONHandler struct {
	enc *json.Encoder
}

// NewJSONHandler returns a handler writing to w.
func NewJSONHandler(w io.Writer) *JSONHandler {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSONHandler{enc: enc}
}

type jsonSite struct {
	Kind string `json:"kind"`
	*detect.Site
}

type jsonSummary struct {
	Kind string `json:"kind"`
	*detect.Summary
}

type jsonError struct {
	Kind  string `json:"kind"`
	Error string `json:"error"` // what happened; the errors say why
	*detect.PackageError
}

// Site writes an "invocation" object.
func (h *JSONHandler) Site(s *detect.Site) error { return h.enc.Encode(jsonSite{"invocation", s}) }

// Summary writes a "package" object.
func (h *JSONHandler) Summary(s *detect.Summary) error {
	return h.enc.Encode(jsonSummary{"package", s})
}

// PackageError writes an "error" object.
func (h *JSONHandler) PackageError(e *detect.PackageError) error {
	return h.enc.Encode(jsonError{"error", "the package could not be analysed", e})
}
