package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

type shellArgs struct {
	Command string `json:"command" jsonschema:"a command line for sh -c, run in the workspace folder"`
}

// capWriter keeps the first max bytes, cut before a character the cap
// falls inside, and counts the rest.
type capWriter struct {
	buf     bytes.Buffer
	max     int
	dropped int
}

func (w *capWriter) Write(p []byte) (int, error) {
	room := w.max - w.buf.Len()
	if room >= len(p) {
		return w.buf.Write(p)
	}
	if room > 0 {
		w.buf.Write(p[:room])
	}
	w.dropped += len(p) - max(room, 0)
	// The cut must not split a character, here or begun in an earlier
	// write; nothing goes in after it.
	keep := runeEnd(w.buf.Bytes())
	w.dropped += w.buf.Len() - keep
	w.buf.Truncate(keep)
	w.max = keep
	return len(p), nil
}

func (s *Set) shell() (dispatch.Tool, error) {
	d := contract.ToolDescriptor{
		Name:          "shell",
		Description:   "Run a shell command (sh -c) in the workspace folder and return its output. Each call needs the user's approval; they may allow command names for the session.",
		InputSchema:   []byte(`{"type":"object","properties":{"command":{"type":"string","description":"a command line for sh -c, run in the workspace folder"}},"required":["command"],"additionalProperties":false}`),
		NeedsApproval: true,
		Timeout:       s.opts.ShellTimeout + s.opts.ShellTimeout/10,
	}
	t, err := dispatch.NewTool(d, s.runShell)
	if err != nil {
		return nil, err
	}
	return dispatch.WithApprovalKeys(t, shellKeys), nil
}

func (s *Set) runShell(ctx context.Context, raw json.RawMessage) (contract.ToolOutcome, error) {
	var a shellArgs
	if err := decodeStrict(raw, &a); err != nil {
		return contract.ToolOutcome{}, err
	}
	if strings.TrimSpace(a.Command) == "" {
		return contract.ToolOutcome{}, errors.New("shell: empty command")
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.ShellTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", a.Command)
	cmd.Dir = s.opts.Root
	if sub := s.subdir(ctx); sub != "" {
		cmd.Dir = filepath.Join(s.opts.Root, filepath.FromSlash(sub))
	}
	out := &capWriter{max: int(s.opts.MaxRead)}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = s.opts.ShellTimeout / 10
	killGroup(cmd)
	err := cmd.Run()
	endGroup(cmd)
	text := out.buf.String()
	if out.dropped > 0 {
		text += fmt.Sprintf("\n[%d more bytes dropped]", out.dropped)
	}
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return contract.ToolOutcome{Content: text + fmt.Sprintf("\n[timed out after %s]", s.opts.ShellTimeout), IsError: true, Truncated: out.dropped > 0}, nil
	case errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState.Success():
		// sh is done; what it left in the background held the output open.
		return contract.ToolOutcome{Content: text + "\n[background jobs were stopped when the command ended]", Truncated: out.dropped > 0}, nil
	case err != nil:
		return contract.ToolOutcome{Content: text + "\n[" + err.Error() + "]", IsError: true, Truncated: out.dropped > 0}, nil
	}
	return contract.ToolOutcome{Content: text, Truncated: out.dropped > 0}, nil
}
