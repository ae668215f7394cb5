//go:build !linux

package main

import "os"

// echoOff is not available here: typed lines are echoed by the terminal.
func echoOff(*os.File) func() (restore func()) { return nil }
