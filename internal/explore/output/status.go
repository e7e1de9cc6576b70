package output

import (
	"io"
	"sync"
	"time"
)

// StatusMode says how a Status shows progress.
type StatusMode int

const (
	// StatusTerminal keeps one line on a terminal up to date: carriage
	// return, the line, clear to the end of the line. Other output
	// written through Status.Writer first clears it.
	StatusTerminal StatusMode = iota
	// StatusPlain writes a line every few seconds while a target is
	// explored, and one when each target's exploration ends, as go test
	// -fuzz does off a terminal (CI logs).
	StatusPlain
)

// Status shows the progress of a run on standard error. Progress may
// be called from one goroutine, writes through Writer from any; a timer
// of its own refreshes the line (terminal) or writes the periodic lines
// (plain). Close stops it and clears the line.
type Status struct {
	mu    sync.Mutex
	w     io.Writer
	mode  StatusMode
	width int // the terminal's columns (0: unknown)
	every time.Duration
	now   func() time.Time

	cur   Progress
	at    time.Time // when cur was taken
	has   bool
	shown bool // the status line is on the terminal
	// partial is set while other output written through Writer has not
	// ended its line: the status line waits for it.
	partial bool
	last    time.Time // when the last plain line was written

	ticking bool // the timer runs
	stop    chan struct{}
	done    chan struct{}
}

// Intervals of the status timer.
const (
	TerminalRefresh = time.Second     // the terminal's line, for the elapsed time
	PlainEvery      = 3 * time.Second // plain lines while a target is explored
	terminalLeast   = 100 * time.Millisecond
)

// NewStatus returns a Status writing to w (standard error) in mode.
// width is the terminal's number of columns (0: unknown); every the
// interval of the timer (0: TerminalRefresh or PlainEvery).
func NewStatus(w io.Writer, mode StatusMode, width int, every time.Duration) *Status {
	s := newStatus(w, mode, width, every)
	s.ticking = true
	go s.tick()
	return s
}

// newStatus is a Status without its timer (tests tick it).
func newStatus(w io.Writer, mode StatusMode, width int, every time.Duration) *Status {
	if every <= 0 {
		every = TerminalRefresh
		if mode == StatusPlain {
			every = PlainEvery
		}
	}
	return &Status{w: w, mode: mode, width: width, every: every, now: time.Now, stop: make(chan struct{}), done: make(chan struct{})}
}

func (s *Status) tick() {
	defer close(s.done)
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C:
			s.onTick()
		}
	}
}

// onTick refreshes the terminal's line, or writes a plain line if none
// was written for an interval (a tenth of it spared for the timer's
// jitter) and a step is under way.
func (s *Status) onTick() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.has {
		return
	}
	switch s.mode {
	case StatusTerminal:
		s.draw()
	case StatusPlain:
		if s.now().Sub(s.last) >= s.every-s.every/10 && s.cur.Phase != PhaseExplored {
			s.plain()
		}
	}
}

// Progress records p and shows it as the mode says.
func (s *Status) Progress(p Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	phaseChanged := !s.has || p.Phase != s.cur.Phase || p.Target != s.cur.Target || p.Package != s.cur.Package
	s.cur, s.at, s.has = p, s.now(), true
	switch s.mode {
	case StatusTerminal:
		if phaseChanged || !s.shown || s.now().Sub(s.last) >= terminalLeast {
			s.draw()
		}
	case StatusPlain:
		if p.Phase == PhaseExplored {
			s.plain()
		}
	}
}

// line is the status text now, cut to the terminal's width.
func (s *Status) line() string {
	l := "dowse: " + s.cur.advanced(s.now().Sub(s.at)).Line()
	if s.mode == StatusTerminal && s.width > 1 {
		if r := []rune(l); len(r) > s.width-1 {
			l = string(r[:s.width-2]) + "…"
		}
	}
	return l
}

// draw writes the status line over the one on the terminal.
func (s *Status) draw() {
	if s.partial {
		return
	}
	io.WriteString(s.w, "\r"+s.line()+"\x1b[K")
	s.shown, s.last = true, s.now()
}

// plain writes the status as a line of its own.
func (s *Status) plain() {
	io.WriteString(s.w, s.line()+"\n")
	s.last = s.now()
}

// clear removes the status line from the terminal.
func (s *Status) clear() {
	if s.shown {
		io.WriteString(s.w, "\r\x1b[K")
		s.shown = false
	}
}

// Writer returns a writer to w (standard output or standard error, on
// the same terminal) that clears the status line before each write and
// shows it again after a write that ends a line. In plain mode it only
// keeps its writes and the status lines, which the timer writes, apart.
func (s *Status) Writer(w io.Writer) io.Writer {
	return statusWriter{s, w}
}

type statusWriter struct {
	s *Status
	w io.Writer
}

func (sw statusWriter) Write(p []byte) (int, error) {
	s := sw.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mode != StatusTerminal {
		return sw.w.Write(p)
	}
	s.clear()
	n, err := sw.w.Write(p)
	if len(p) > 0 {
		s.partial = p[len(p)-1] != '\n'
	}
	if s.has && !s.partial && !s.closed() {
		s.draw()
	}
	return n, err
}

func (s *Status) closed() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

// Close stops the timer and clears the status line. It is safe to call
// more than once.
func (s *Status) Close() {
	s.mu.Lock()
	if !s.closed() {
		close(s.stop)
		if !s.ticking {
			close(s.done)
		}
	}
	s.mu.Unlock()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
}

// WithStatus returns h with the progress of the run shown by s. Its
// Flush closes s before h writes the totals, so that they follow the
// status line rather than share it.
func WithStatus(h Handler, s *Status) ProgressHandler { return statusHandler{h, s} }

type statusHandler struct {
	Handler
	s *Status
}

func (h statusHandler) Progress(p Progress) { h.s.Progress(p) }

// Error writes err, which ends the run, into the stream of a handler
// that writes one (JSONHandler.Error).
func (h statusHandler) Error(err error) error {
	if e, ok := h.Handler.(interface{ Error(error) error }); ok {
		return e.Error(err)
	}
	return nil
}

func (h statusHandler) Flush() error {
	h.s.Close()
	return h.Handler.Flush()
}

// PackageDone hands the end of a package on, if h wants it.
func (h statusHandler) PackageDone(pkg string, elapsed time.Duration) error {
	if ph, ok := h.Handler.(PackageHandler); ok {
		return ph.PackageDone(pkg, elapsed)
	}
	return nil
}
