package cadence_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// The stable printer: one line per effect and a line for the snapshot,
// naming what a reader checks and nothing that varies between equal runs.

func clip(s string) string {
	if len(s) > 72 {
		s = s[:72] + "..."
	}
	return strconv.Quote(s)
}

// printRejection prints Step's refusal of a signal.
func printRejection(err error) string {
	var rej *cadence.Rejection
	if !errors.As(err, &rej) {
		return "error " + err.Error()
	}
	return fmt.Sprintf("rejected %s %q", rej.Signal, rej.Reason)
}

func printEffect(e contract.Effect) string {
	switch e := e.(type) {
	case *contract.Persist:
		s := fmt.Sprintf("persist step=%d %s", e.Record.Step, e.Record.Signal.SignalKind())
		if len(e.Links) > 0 {
			s += " links=" + strings.Join(e.Links, ",")
		}
		return s
	case *contract.Publish:
		return "publish " + printEvent(e.Event)
	case *contract.InvokeModel:
		r := e.Request
		var tools []string
		for _, d := range r.Tools {
			tools = append(tools, d.Name)
		}
		return fmt.Sprintf("invoke_model turn=%d history=%d tools=[%s]", r.Turn, r.History.Len(), strings.Join(tools, " "))
	case *contract.RunTool:
		return fmt.Sprintf("run_tool %s %s %s", e.Call.ID, e.Call.Name, e.Call.Arguments)
	case *contract.StartDelegate:
		out := fmt.Sprintf("start_delegate %s %s session=%s depth=%d/%d model=%s task=%s", e.Call.ID, e.Delegate, e.Session, e.Config.Depth, e.Config.MaxDelegationDepth, e.Config.Model, clip(e.Task))
		if len(e.Allowed) > 0 {
			out += " allowed=" + strings.Join(e.Allowed, ",")
		}
		return out
	case *contract.RequestApproval:
		out := fmt.Sprintf("request_approval %s %s", e.Call.ID, e.Call.Name)
		if len(e.Keys) != 1 || e.Keys[0] != e.Call.Name {
			out += fmt.Sprintf(" keys=%q", e.Keys)
		}
		return out
	case *contract.AskHuman:
		return fmt.Sprintf("ask_human %s %s %s %q", e.Call.ID, e.Call.Name, clip(e.Question.Text), e.Question.Choices)
	case *contract.Compact:
		return fmt.Sprintf("compact cut=%d turns=%d", e.Cut, len(e.Turns))
	case *contract.CancelInFlight:
		s := "cancel_in_flight"
		if e.Model {
			s += " model"
		}
		return s + " " + strings.Join(e.CallIDs, " ")
	}
	return fmt.Sprintf("unknown effect %T", e)
}

func printEvent(ev contract.RunEvent) string {
	s := fmt.Sprintf("#%d %s", ev.Seq, ev.Kind)
	if ev.Signal != "" {
		s += " " + string(ev.Signal)
	}
	if ev.Call != nil {
		s += " " + ev.Call.ID
	}
	if ev.Kind == contract.EvApprovalResolved {
		s += fmt.Sprintf(" approved=%v scope=%s", ev.Approved, ev.Scope)
	}
	if ev.Result != nil {
		s += fmt.Sprintf(" error=%v", ev.Result.IsError)
	}
	if ev.Err != nil {
		s += " kind=" + string(ev.Err.Kind)
	}
	if ev.Kind == contract.EvCompaction {
		s += fmt.Sprintf(" cut=%d", ev.Index)
	}
	if ev.Input != "" {
		s += " input=" + string(ev.Input)
	}
	if ev.Kind == contract.EvTurnStarted {
		s += fmt.Sprintf(" round=%d/%d", ev.Round, ev.MaxRounds)
	}
	if ev.Kind == contract.EvTurnCompleted && ev.Usage != nil {
		s += " usage=" + printUsage(*ev.Usage)
	}
	if ev.Result != nil {
		s += " " + clip(ev.Result.Content)
	} else if ev.Text != "" {
		s += " " + clip(ev.Text)
	}
	return s
}

func printSnapshot(s contract.RunSnapshot) string {
	out := fmt.Sprintf("=> %s turns=%d history=%d seq=%d", s.Phase, s.Turns, s.History.Len(), s.Seq)
	for _, p := range s.Pending {
		out += " " + p.Call.ID + ":" + string(p.State)
	}
	for _, q := range s.Queued {
		out += " queued:" + string(q.Kind)
	}
	if s.Abort != "" {
		out += " abort:" + string(s.Abort)
	}
	if s.Err != nil {
		out += " error=" + s.Err.Error()
	}
	if s.Revision != 0 {
		out += " revision=" + strconv.Itoa(s.Revision)
	}
	return out
}

func printUsage(u contract.Usage) string {
	return fmt.Sprintf("in=%d out=%d models=%d tools=%d wall=%d", u.InputTokens, u.OutputTokens, u.ModelCalls, u.ToolCalls, u.WallNanos)
}

func printHistory(h contract.History) string {
	var b strings.Builder
	for i, t := range h.All() {
		fmt.Fprintf(&b, "%d %s", i, t.Role)
		if t.Mark != "" {
			fmt.Fprintf(&b, " [%s]", t.Mark)
		}
		if t.Excluded {
			b.WriteString(" (excluded)")
		}
		for _, blk := range t.Blocks {
			switch {
			case blk.Call != nil:
				fmt.Fprintf(&b, " call(%s %s %s)", blk.Call.ID, blk.Call.Name, blk.Call.Arguments)
			case blk.Result != nil:
				e := ""
				if blk.Result.IsError {
					e = " error"
				}
				fmt.Fprintf(&b, " result(%s%s %s)", blk.Result.CallID, e, clip(blk.Result.Content))
			default:
				b.WriteString(" " + clip(blk.Text))
			}
		}
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// printResults prints the terminal-snapshot accessors.
func printResults(s contract.RunSnapshot) string {
	out := fmt.Sprintf("final=%s turns=%d wall=%s", clip(s.FinalText()), s.TurnCount(), s.WallTime())
	for _, c := range s.ToolCalls() {
		out += "\ncall " + c.Call.ID + " " + c.Call.Name + " " + c.Call.Arguments
		if c.Result != nil {
			out += fmt.Sprintf(" -> error=%v %s", c.Result.IsError, clip(c.Result.Content))
		}
	}
	return out
}

// printRequest prints what a model call is sent: the system prompt when
// there is one, the sampling options when set, and the history.
func printRequest(r contract.ModelRequest) string {
	out := ""
	if r.System != "" {
		out += "system " + strconv.Quote(r.System) + "\n"
	}
	if samp, _ := json.Marshal(r.Sampling); string(samp) != "{}" {
		out += "sampling " + string(samp) + "\n"
	}
	return out + printHistory(r.History)
}
