package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/dowse-go/dowse/internal/procgroup"
)

// Exit statuses of a run stopped by a signal, as a shell reports them
// (128 + the signal's number).
const (
	exitInterrupted = 130 // SIGINT
	exitTerminated  = 143 // SIGTERM
)

// stopSignals are the signals that stop dowse: Ctrl-C, and what CI
// runners, timeout(1) and container stops send.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// signalError is the cause of a context ended by a signal.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }

// signalName names sig as users know it.
func signalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// signalCode is the exit status of a run stopped by sig.
func signalCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}

// stopCode is the exit status of a run whose context ended: that of the
// signal that ended it (exitInterrupted when no signal did).
func stopCode(ctx context.Context) int {
	var se *signalError
	if errors.As(context.Cause(ctx), &se) {
		return signalCode(se.sig)
	}
	return exitInterrupted
}

// signalContext returns a context that the first SIGINT or SIGTERM ends,
// with a *signalError cause. The run then stops and keeps what it found;
// a second signal ends the process at once, with the status of the
// first, writing nothing more (procgroup.Exit). stop releases the signals.
func signalContext(name string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	done := make(chan struct{})
	go func() {
		var first os.Signal
		for {
			select {
			case sig := <-sigs:
				if first == nil {
					first = sig
					fmt.Fprintf(os.Stderr, "dowse %s: %s: stopping (a second signal stops at once)\n", name, signalName(sig))
					cancel(&signalError{sig})
					continue
				}
				fmt.Fprintf(os.Stderr, "dowse %s: %s again: stopping at once\n", name, signalName(sig))
				procgroup.Exit(signalCode(first))
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
