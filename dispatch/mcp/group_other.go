//go:build !unix

package mcp

import "os/exec"

// ownGroup and endGroup are no-ops where there are no process groups to
// end a command's descendants with.
func ownGroup(*exec.Cmd) {}

func endGroup(*exec.Cmd) {}
