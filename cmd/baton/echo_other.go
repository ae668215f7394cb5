//go:build !linux

package main

import "os"

// echoOff is not available here: typed lines are echoed by the terminal.
func echoOff(*os.File) func() (restore func()) { return nil }

// isTerminal reports whether f is a character device, as a terminal is.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
