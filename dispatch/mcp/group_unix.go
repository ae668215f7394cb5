//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that what it
// starts in turn (a shell wrapper's children, the server npx launches, a
// helper it forks) can be ended with it; a terminal's Ctrl-C then reaches
// baton alone, which stops its servers itself.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// endGroup kills what is left of the process group of cmd, which has
// ended: descendants it left behind. A group with no one left is gone,
// and the kill finds nothing.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
