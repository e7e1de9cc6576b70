package output

import (
	"encoding/json"
	"io"
)

// JSONHandler writes one JSON object per target.
type JSONHandler struct {
	enc *json.Encoder
}

// NewJSONHandler returns a handler writing to w.
func NewJSONHandler(w io.Writer) *JSONHandler {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return &JSONHandler{enc: enc}
}

// Target implements Handler.
func (h *JSONHandler) Target(t *Target) error {
	return h.enc.Encode(t)
}

// Flush implements Handler.
func (h *JSONHandler) Flush() error { return nil }
