package output

import (
	"encoding/json"
	"io"
	"sync"
	"time"
)

// JSONHandler writes one JSON object per target, each on a line of its own
// (as go test -json does), so that a stream can be read line by line.
// With progress events on (WithProgress), objects {"progress": {...}}
// (Progress) come between them: when a phase, package or target
// begins, when a target's exploration ends, and every few seconds while
// one is explored.
type JSONHandler struct {
	mu       sync.Mutex
	enc      *json.Encoder
	progress bool
	every    time.Duration
	last     Progress
	lastAt   time.Time
	now      func() time.Time
}

// NewJSONHandler returns a handler writing to w.
func NewJSONHandler(w io.Writer) *JSONHandler {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSONHandler{enc: enc, every: PlainEvery, now: time.Now}
}

// WithProgress turns progress events on, written at most every
// interval while a target's counts grow (0: PlainEvery), and returns h.
func (h *JSONHandler) WithProgress(every time.Duration) *JSONHandler {
	h.progress = true
	if every > 0 {
		h.every = every
	}
	return h
}

// Target implements Handler.
func (h *JSONHandler) Target(t *Target) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.enc.Encode(t)
}

// progressEvent is the JSON form of a progress event.
type progressEvent struct {
	Progress Progress `json:"progress"`
}

// Progress implements ProgressHandler: it writes an event for p if p
// begins a phase, a package or a target, ends a target's exploration, or
// comes an interval after the last event.
func (h *JSONHandler) Progress(p Progress) {
	if !h.progress {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	step := p.Phase != h.last.Phase || p.Package != h.last.Package || p.Target != h.last.Target
	if !step && now.Sub(h.lastAt) < h.every {
		return
	}
	h.last, h.lastAt = p, now
	h.enc.Encode(progressEvent{p})
}

// errorEvent is the JSON form of an error that ended the run.
type errorEvent struct {
	Error string `json:"error"`
}

// Error writes {"error": "..."} for an error that ends the run (the
// packages do not load or compile, a pattern names no package): the
// stream says why it ends, as detect -json's does.
func (h *JSONHandler) Error(err error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.enc.Encode(errorEvent{err.Error()})
}

// Flush implements Handler.
func (h *JSONHandler) Flush() error { return nil }
