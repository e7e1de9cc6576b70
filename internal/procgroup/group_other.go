//go:build !unix

package procgroup

import (
	"os"
	"os/exec"
)

var (
	interrupt = os.Kill
	kill      = os.Kill
)

// setGroup does nothing: process groups are a Unix notion.
func setGroup(*exec.Cmd) {}

// signalGroup ends the process pid.
func signalGroup(pid int, sig os.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Signal(sig)
}

// EndedByStopSignal reports false: only Unix tells how a process ended.
func EndedByStopSignal(*os.ProcessState) bool { return false }
