//go:build unix

package procgroup

import (
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
