package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTerminal reports whether f is a terminal. A character device is not
// enough: /dev/null is one too, and a run with stdin from /dev/null
// would wait for answers nobody can type.
func isTerminal(f *os.File) bool {
	conn, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var t syscall.Termios
	failed := true
	conn.Control(func(fd uintptr) {
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
		failed = errno != 0
	})
	return !failed
}

// echoOff stops the terminal on f echoing typed characters, keeping line
// editing, and returns what restores it. Without it a line typed while a
// reply streams is echoed in the middle of the streamed text.
func echoOff(f *os.File) func() (restore func()) {
	return func() func() {
		conn, err := f.SyscallConn()
		if err != nil {
			return func() {}
		}
		var old syscall.Termios
		ioctl := func(req uintptr, t *syscall.Termios) (failed bool) {
			conn.Control(func(fd uintptr) {
				_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(unsafe.Pointer(t)))
				failed = errno != 0
			})
			return failed
		}
		if ioctl(syscall.TCGETS, &old) {
			return func() {}
		}
		quiet := old
		quiet.Lflag &^= syscall.ECHO
		if ioctl(syscall.TCSETS, &quiet) {
			return func() {}
		}
		return func() { ioctl(syscall.TCSETS, &old) }
	}
}
