// Package procgroup runs dowse's child processes so that an interrupt reaches
// all of them, and ends the process at once on a second interrupt.
//
// A command made by Command runs in a process group of its own, so that
// the go command's own children (compile, link, vet) belong to it: when
// the command's context ends, the whole group is sent SIGINT — the go
// command then stops its children and removes its temporary directory —
// and, if it has not ended after a grace period, SIGKILL. Commands run
// with Run, Output or CombinedOutput are recorded while they run, and
// temporary directories made with MkdirTemp until RemoveAll, so that Exit
// can kill and remove them.
package procgroup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Grace is how long a command whose context ended has to stop after
// SIGINT before its process group is killed.
const Grace = 5 * time.Second

var (
	mu      sync.Mutex
	groups  = map[int]bool{}    // process groups of running commands
	stopped = map[int]bool{}    // process groups whose command's context ended
	temps   = map[string]bool{} // temporary directories to remove on Exit
	exiting bool

	// writing is held by Hold (shared) while a file of the user's tree
	// is being replaced, and by Exit, so that Exit never leaves a
	// temporary file beside the user's files.
	writing sync.RWMutex
)

// ErrExiting is returned by Run when the process is ending (Exit).
var ErrExiting = errors.New("dowse is stopping")

// Command returns the command running name with args in a process group
// of its own, which the end of ctx interrupts (SIGINT) and, after Grace,
// kills (SIGKILL).
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	setGroup(cmd)
	cmd.Cancel = func() error {
		pid := cmd.Process.Pid
		mu.Lock()
		stopped[pid] = true
		mu.Unlock()
		err := signalGroup(pid, interrupt)
		time.AfterFunc(Grace, func() { _ = signalGroup(pid, kill) })
		return err
	}
	cmd.WaitDelay = Grace + time.Second
	return cmd
}

// Run starts cmd, records its process group until it ends, and waits for
// it. When the command was stopped (its context ended), what is left of
// its process group once it has ended — children that ignore SIGINT — is
// killed.
func Run(cmd *exec.Cmd) error {
	mu.Lock()
	if exiting {
		mu.Unlock()
		return ErrExiting
	}
	err := cmd.Start()
	if err != nil {
		mu.Unlock()
		return err
	}
	pid := cmd.Process.Pid
	groups[pid] = true
	mu.Unlock()
	err = cmd.Wait()
	mu.Lock()
	delete(groups, pid)
	if stopped[pid] {
		delete(stopped, pid)
		_ = signalGroup(pid, kill)
	}
	mu.Unlock()
	return err
}

// Output runs cmd (Run) and returns its standard output. Unless
// cmd.Stderr is set, standard error is kept in the *exec.ExitError, as
// exec.Cmd.Output keeps it.
func Output(cmd *exec.Cmd) ([]byte, error) {
	var out, errOut bytes.Buffer
	cmd.Stdout = &out
	captured := cmd.Stderr == nil
	if captured {
		cmd.Stderr = &errOut
	}
	err := Run(cmd)
	var ee *exec.ExitError
	if captured && errors.As(err, &ee) {
		ee.Stderr = errOut.Bytes()
	}
	return out.Bytes(), err
}

// CombinedOutput runs cmd (Run) and returns its standard output and
// standard error together.
func CombinedOutput(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(cmd)
	return out.Bytes(), err
}

// MkdirTemp is os.MkdirTemp, and records the directory for Exit to
// remove until RemoveAll removes it.
func MkdirTemp(dir, pattern string) (string, error) {
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	mu.Lock()
	temps[d] = true
	mu.Unlock()
	return d, nil
}

// RemoveAll removes a directory made by MkdirTemp.
func RemoveAll(dir string) error {
	mu.Lock()
	delete(temps, dir)
	mu.Unlock()
	return os.RemoveAll(dir)
}

// Forget stops recording dir for removal: it is kept on purpose.
func Forget(dir string) {
	mu.Lock()
	delete(temps, dir)
	mu.Unlock()
}

// Hold marks a file of the user's tree being written; Exit waits until
// the returned function is called.
func Hold() (release func()) {
	writing.RLock()
	return writing.RUnlock
}

// Exit ends the process at once with code: it waits for the file being
// written (Hold), kills the process groups of the running commands,
// removes the temporary directories and exits.
func Exit(code int) {
	writing.Lock()
	mu.Lock()
	exiting = true
	for pid := range groups {
		_ = signalGroup(pid, kill)
	}
	dirs := make([]string, 0, len(temps))
	for d := range temps {
		dirs = append(dirs, d)
	}
	mu.Unlock()
	for _, d := range dirs {
		if err := os.RemoveAll(d); err != nil {
			fmt.Fprintf(os.Stderr, "dowse: %v\n", err)
		}
	}
	os.Exit(code)
}
