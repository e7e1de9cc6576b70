//go:build unix

package procgroup

import (
	"os"
	"os/exec"
	"syscall"
)

const (
	interrupt = syscall.SIGINT
	kill      = syscall.SIGKILL
)

// setGroup makes cmd start in a process group of its own.
func setGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// signalGroup sends sig to the process group led by pid.
func signalGroup(pid int, sig syscall.Signal) error {
	return syscall.Kill(-pid, sig)
}

// EndedByStopSignal reports whether the process ended by SIGINT or
// SIGTERM: the signals that stop dowse, which a terminal's Ctrl-C sends
// to its children as well.
func EndedByStopSignal(ps *os.ProcessState) bool {
	if ps == nil {
		return false
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGINT || ws.Signal() == syscall.SIGTERM)
}
