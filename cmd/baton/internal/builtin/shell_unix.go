//go:build unix

package builtin

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killGroup puts the command in a process group of its own and kills the
// whole group when its context ends: killing sh alone leaves what it
// started (a pipeline, a background job, a server) running past the
// timeout or the abort.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			// The group is gone: sh and all it started already exited,
			// which exec.Cmd expects to be told as os.ErrProcessDone.
			return os.ErrProcessDone
		}
		return err
	}
}

// endGroup kills what the command left running once sh itself is done: a
// background job (server &) would otherwise outlive the call, holding
// its output open, and baton.
func endGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
