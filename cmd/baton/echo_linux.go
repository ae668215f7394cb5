package main

import (
	"os"
	"syscall"
	"unsafe"
)

// echoOff stops the terminal on f echoing typed characters, keeping line
// editing, and returns what restores it. Without it a line typed while a
// reply streams is echoed in the middle of the streamed text.
func echoOff(f *os.File) func() (restore func()) {
	return func() func() {
		var old syscall.Termios
		fd := f.Fd()
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&old))); errno != 0 {
			return func() {}
		}
		quiet := old
		quiet.Lflag &^= syscall.ECHO
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&quiet))); errno != 0 {
			return func() {}
		}
		return func() {
			syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&old)))
		}
	}
}
