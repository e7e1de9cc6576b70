//go:build linux || darwin

package main

import (
	"syscall"
	"unsafe"
)

// termWidth asks the terminal on fd for its number of columns (0: not
// known).
func termWidth(fd uintptr) int {
	var ws struct{ row, col, x, y uint16 }
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws)))
	if errno != 0 {
		return 0
	}
	return int(ws.col)
}
