package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// transcript prints records as a conversation a person can read. It folds
// them as it goes, to tell where each run ended and how.
type transcript struct {
	w     io.Writer
	rules *cadence.Rules
	snap  contract.RunSnapshot
	names map[string]string
}

func writeTranscript(w io.Writer, rules *cadence.Rules, sessionID string, records []contract.Record) error {
	t := &transcript{w: w, rules: rules, snap: cadence.InitialSnapshot(sessionID), names: map[string]string{}}
	folded := 0
	for f, err := range rules.Steps(t.snap, records) {
		t.record(f.Record)
		if err != nil {
			fmt.Fprintf(t.w, "!! step %d: this signal does not fit the session's state; the rest is shown unfolded\n", f.Record.Step)
			t.rest(records[folded+1:])
			return nil
		}
		folded++
		t.ended(f.Before, f.After)
		t.snap = f.After
	}
	if t.snap.Phase.InFlight() {
		fmt.Fprintf(t.w, "── run %s still in flight (%s)\n", t.snap.RunID, t.snap.Phase)
	}
	return nil
}

func (t *transcript) rest(records []contract.Record) {
	for _, rec := range records {
		t.record(rec)
	}
}

func (t *transcript) ended(prev, next contract.RunSnapshot) {
	if prev.Phase == next.Phase || !next.Phase.Terminal() {
		return
	}
	u := next.RunUsage
	usage := usageLine(u)
	if next.Phase == contract.PhaseFaulted && next.Err != nil {
		fmt.Fprintf(t.w, "── faulted: %s: %s (%s)\n", next.Err.Kind, next.Err.Message, usage)
		return
	}
	fmt.Fprintf(t.w, "── settled (%s)\n", usage)
}

func (t *transcript) record(rec contract.Record) {
	switch s := rec.Signal.(type) {
	case contract.Submitted:
		fmt.Fprintf(t.w, "── run %s  %s\n", s.RunID, s.At.Time().Format("2006-01-02 15:04:05Z"))
		t.turns("user", s.Input)
	case contract.Steered:
		t.turns("steer", s.Input)
	case contract.FollowUpQueued:
		t.turns("follow-up", s.Input)
	case contract.ModelReplied:
		t.reply(s.Reply)
	case contract.ModelFailed:
		fmt.Fprintf(t.w, "!! model failed (%s): %s\n", s.Failure, s.Message)
	case contract.ToolSettled:
		t.result(s)
	case contract.ApprovalResolved:
		verdict := "denied"
		if s.Approved {
			verdict = "approved"
		}
		if s.Scope == contract.ScopeSession {
			verdict += " for the session"
		}
		fmt.Fprintf(t.w, "   %s %s%s\n", verdict, t.names[s.CallID], reason(s.Reason))
	case contract.Compacted:
		fmt.Fprintf(t.w, "·· compacted %d turns: %s\n", s.Cut, oneLine(s.Summary, 100))
	case contract.CompactionFailed:
		fmt.Fprintf(t.w, "!! compaction failed: %s\n", s.Reason)
	case contract.AbortRequested:
		fmt.Fprintf(t.w, "!! abort (%s)%s\n", s.Mode, reason(s.Reason))
	case contract.Resumed:
		fmt.Fprintln(t.w, "·· resumed")
	}
}

func reason(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}

func (t *transcript) turns(who string, turns []contract.Turn) {
	for _, turn := range turns {
		fmt.Fprintf(t.w, "%s: %s\n", who, indent(turn.Text()))
	}
}

func (t *transcript) reply(turn contract.Turn) {
	for _, b := range turn.Blocks {
		switch b.Kind {
		case contract.BlockText:
			if strings.TrimSpace(b.Text) != "" {
				fmt.Fprintf(t.w, "assistant: %s\n", indent(b.Text))
			}
		case contract.BlockThinking:
			fmt.Fprintf(t.w, "thinking: %s\n", oneLine(b.Text, 100))
		case contract.BlockToolCall:
			t.names[b.Call.ID] = b.Call.Name
			fmt.Fprintf(t.w, "→ %s %s\n", b.Call.Name, oneLine(b.Call.Arguments, 100))
		}
	}
}

func (t *transcript) result(s contract.ToolSettled) {
	mark := "←"
	if s.Outcome.IsError {
		mark = "✗"
	}
	fmt.Fprintf(t.w, "%s %s: %s\n", mark, t.names[s.CallID], oneLine(s.Outcome.Content, 100))
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
