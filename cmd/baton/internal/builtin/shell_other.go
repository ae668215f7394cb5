//go:build !unix

package builtin

import "os/exec"

// killGroup leaves the command as it is: only unix has process groups to
// kill.
func killGroup(*exec.Cmd) {}

// endGroup does nothing where there are no process groups.
func endGroup(*exec.Cmd) {}
