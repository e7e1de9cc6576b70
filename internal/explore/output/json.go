package output

import (
	"encoding/json"
	"io"
)

// JSONHandler writes one JSON object per target, each on a line of its own
// (as go test -json does), so that a stream can be read line by line.
type JSONHandler struct {
	enc *json.Encoder
}

// NewJSONHandler returns a handler writing to w.
func NewJSONHandler(w io.Writer) *JSONHandler {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSONHandler{enc: enc}
}

// Target implements Handler.
func (h *JSONHandler) Target(t *Target) error {
	return h.enc.Encode(t)
}

// Flush implements Handler.
func (h *JSONHandler) Flush() error { return nil }
