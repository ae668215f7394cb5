package main

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// transcript prints a session as the model saw it: it folds the records
// and prints the turns each step added to history, in history order, so
// every tool result the model received (skipped, aborted, refused or
// failed ones too) stands in call order under a number tying it to its
// call. What is not history (run boundaries, approvals, model failures,
// aborts, resumes, compaction) is printed at the step it happened.
type transcript struct {
	w     io.Writer
	snap  contract.RunSnapshot
	calls map[string]int    // call id -> its number in the session
	names map[string]string // call id -> tool name
	view  delegateView
}

func writeTranscript(w io.Writer, rules *cadence.Rules, sessionID string, records []contract.Record) error {
	return writeTranscriptWith(w, rules, sessionID, records, delegateView{})
}

// writeTranscriptWith prints a transcript that shows, at each delegate
// call answered, the child's session as view says.
func writeTranscriptWith(w io.Writer, rules *cadence.Rules, sessionID string, records []contract.Record, view delegateView) error {
	t := &transcript{w: w, snap: cadence.InitialSnapshot(sessionID), calls: map[string]int{}, names: map[string]string{}, view: view}
	for f, err := range rules.Steps(t.snap, records) {
		if err != nil {
			fmt.Fprintf(t.w, "!! step %d: this signal does not fit the session's state; the rest is not shown (see 'baton log --json')\n", f.Record.Step)
			return nil
		}
		t.step(f.Record.Step, f.Record.Signal, f.After)
		t.snap = f.After
	}
	if t.snap.Phase.InFlight() {
		fmt.Fprintf(t.w, "── run %s still in flight (%s)\n", safeLine(t.snap.RunID), t.snap.Phase)
		t.delegates(0)
	}
	return nil
}

// step prints what one signal did: its own line, the delegated runs it
// answered, then the turns it added.
func (t *transcript) step(n uint64, sig contract.Signal, next contract.RunSnapshot) {
	t.signal(sig)
	t.delegates(n)
	added, grew := next.History.After(t.snap.History)
	excluded := 0
	if _, ok := sig.(contract.Compacted); ok && grew {
		fmt.Fprintln(t.w, "·· compaction skipped: the summary would not shrink the history")
	}
	if !grew {
		added, excluded = t.rewritten(sig, next)
	}
	for _, turn := range added {
		if turn.Excluded {
			excluded++
		}
		if turn.Mark == contract.MarkRunFailed {
			verb := "are"
			if excluded == 1 {
				verb = "is"
			}
			fmt.Fprintf(t.w, "·· the failed run's %s %s left out of later model calls\n", count(int64(excluded), "turn"), verb)
			continue
		}
		t.turn(turn)
	}
	t.ended(next)
}

func (t *transcript) signal(sig contract.Signal) {
	switch s := sig.(type) {
	case contract.Submitted:
		fmt.Fprintf(t.w, "── run %s  %s\n", safeLine(s.RunID), s.At.Time().Format("2006-01-02 15:04:05Z"))
	case contract.ModelFailed:
		fmt.Fprintf(t.w, "!! model failed (%s): %s\n", s.Failure, safeLine(s.Message))
	case contract.ApprovalResolved:
		verdict := "denied"
		if s.Approved {
			verdict = "approved"
		}
		if s.Scope == contract.ScopeSession {
			verdict += " for the session"
		}
		fmt.Fprintf(t.w, "   %s %s%s\n", verdict, t.callRef(s.CallID), safeLine(reason(s.Reason)))
	case contract.CompactionFailed:
		fmt.Fprintf(t.w, "!! compaction failed: %s\n", safeLine(s.Reason))
	case contract.AbortRequested:
		fmt.Fprintf(t.w, "!! abort (%s)%s\n", s.Mode, safeLine(reason(s.Reason)))
	case contract.Resumed:
		fmt.Fprintln(t.w, "·· resumed")
	case contract.ToolsChanged:
		fmt.Fprintf(t.w, "·· the run's tools changed: %s\n", toolsChange(t.snap.RunTools, s.Tools))
	}
}

// toolsChange says what a change of a run's own tools did: the tools it
// added, dropped and described anew, by name.
func toolsChange(before, after []contract.ToolDescriptor) string {
	was := map[string]contract.ToolDescriptor{}
	for _, d := range before {
		was[d.Name] = d
	}
	var added, dropped, redescribed []string
	for _, d := range after {
		old, ok := was[d.Name]
		switch {
		case !ok:
			added = append(added, safeLine(d.Name))
		case !reflect.DeepEqual(old, d):
			redescribed = append(redescribed, safeLine(d.Name))
		}
		delete(was, d.Name)
	}
	for _, d := range before {
		if _, ok := was[d.Name]; ok {
			dropped = append(dropped, safeLine(d.Name))
		}
	}
	var parts []string
	for _, p := range []struct {
		verb  string
		names []string
	}{{"added", added}, {"dropped", dropped}, {"redescribed", redescribed}} {
		if len(p.names) > 0 {
			parts = append(parts, p.verb+" "+strings.Join(p.names, ", "))
		}
	}
	if len(parts) == 0 {
		return "the same tools again"
	}
	return strings.Join(parts, "; ")
}

// rewritten reports a step that rewrote history rather than only adding
// to it (a summary, its fallback, or a failed run left out) and returns
// the turns the same step added after the rewrite, which the model reads
// or which answer its calls: steering that waited for the summary, a
// reminder, the results of calls a fault cut short. It also returns how
// many of the turns it kept the step newly left out.
func (t *transcript) rewritten(sig contract.Signal, next contract.RunSnapshot) ([]contract.Turn, int) {
	before, after := t.snap.History.Turns(), next.History.Turns()
	// before[from:] lines up with after[to:]: a summary and its archive
	// marker replace the first Cut turns; the other rewrites keep them all.
	from, to := 0, 0
	if s, ok := sig.(contract.Compacted); ok {
		fmt.Fprintf(t.w, "·· compacted %s into a summary: %s\n", count(int64(s.Cut), "turn"), oneLine(s.Summary, 200))
		from, to = s.Cut, 2
	}
	kept := len(before) - from
	if from > len(before) || to+kept > len(after) {
		fmt.Fprintf(t.w, "·· history rewritten: %s, was %d\n", count(int64(len(after)), "turn"), len(before))
		return nil, 0
	}
	if _, ok := sig.(contract.CompactionFailed); ok {
		fmt.Fprintln(t.w, "·· dropped old tool outputs instead")
	}
	excluded := 0
	for i, turn := range after[to : to+kept] {
		if turn.Excluded && !before[from+i].Excluded {
			excluded++
		}
	}
	return after[to+kept:], excluded
}

func (t *transcript) ended(next contract.RunSnapshot) {
	if t.snap.Phase == next.Phase || !next.Phase.Terminal() {
		return
	}
	usage := usageLine(next.RunUsage)
	if next.Phase == contract.PhaseFaulted && next.Err != nil {
		fmt.Fprintf(t.w, "── %s: %s (%s)\n", faultWord(next.Err), safeLine(next.Err.Message), usage)
		return
	}
	fmt.Fprintf(t.w, "── settled (%s)\n", usage)
}

// faultWord names how a run ended without settling.
func faultWord(e *contract.RunError) string {
	if e.Kind == contract.KindAborted {
		return "stopped"
	}
	return "faulted: " + string(e.Kind)
}

func (t *transcript) turn(turn contract.Turn) {
	switch turn.Role {
	case contract.RoleAssistant:
		t.reply(turn)
	case contract.RoleTool:
		for _, r := range turn.Results() {
			t.result(r)
		}
	default:
		fmt.Fprintf(t.w, "%s: %s\n", speaker(turn.Mark), indent(safeText(turn.Text())))
		for _, r := range turn.Results() {
			t.result(r)
		}
	}
}

// speaker names who wrote a user-role turn.
func speaker(m contract.TurnMark) string {
	switch m {
	case contract.MarkSteer:
		return "steer"
	case contract.MarkFollowUp:
		return "follow-up"
	case contract.MarkRetrieved:
		return "context"
	case contract.MarkReminder:
		return "reminder"
	case contract.MarkSummary:
		return "summary"
	case contract.MarkArchive:
		return "archive"
	case contract.MarkOutputRetry:
		return "schema"
	}
	return "user"
}

func reason(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}

func (t *transcript) reply(turn contract.Turn) {
	for _, b := range turn.Blocks {
		switch b.Kind {
		case contract.BlockText:
			if strings.TrimSpace(b.Text) != "" {
				fmt.Fprintf(t.w, "assistant: %s\n", indent(safeText(b.Text)))
			}
		case contract.BlockThinking:
			fmt.Fprintf(t.w, "thinking: %s\n", oneLine(b.Text, 100))
		case contract.BlockToolCall:
			t.calls[b.Call.ID] = len(t.calls) + 1
			t.names[b.Call.ID] = b.Call.Name
			fmt.Fprintf(t.w, "→ %s %s\n", t.callRef(b.Call.ID), oneLine(b.Call.Arguments, 200))
		}
	}
}

// callRef names a call by its number in the session and its tool, or by
// its id when no recorded call has that id.
func (t *transcript) callRef(id string) string {
	n, ok := t.calls[id]
	if !ok {
		return "call " + safeLine(id)
	}
	return fmt.Sprintf("#%d %s", n, safeLine(t.names[id]))
}

func (t *transcript) result(r contract.ToolResult) {
	mark := "←"
	if r.IsError {
		mark = "✗"
	}
	ref := fmt.Sprintf("call %s %s", safeLine(r.CallID), safeLine(r.Name))
	if n, ok := t.calls[r.CallID]; ok {
		ref = fmt.Sprintf("#%d %s", n, safeLine(r.Name))
	}
	fmt.Fprintf(t.w, "%s %s: %s\n", mark, ref, oneLine(r.Content, 200))
}

// indent lines a multi-line text up under its speaker.
func indent(s string) string {
	return strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}

// usageLine sums up a run's usage for people.
func usageLine(u contract.Usage) string {
	return fmt.Sprintf("%s, %s, %d tokens in, %d out",
		count(u.ModelCalls, "model call"), count(u.ToolCalls, "tool call"), u.InputTokens, u.OutputTokens)
}

func count(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
