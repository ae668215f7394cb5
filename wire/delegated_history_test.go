package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

func TestInterleave(t *testing.T) {
	// ev is an event stamped at, of kind and, for a subflow_started, the
	// session it begins.
	ev := func(at int64, kind contract.EventKind, text string) contract.RunEvent {
		return contract.RunEvent{At: contract.Timestamp(at), Kind: kind, Text: text}
	}
	// call and in give ev a tool call id and a subflow path.
	call := func(ev contract.RunEvent, id string) contract.RunEvent {
		ev.Call = &contract.ToolCall{ID: id}
		return ev
	}
	in := func(ev contract.RunEvent, path ...string) contract.RunEvent {
		ev.Subflow = path
		return ev
	}
	started, result := contract.EvSubflowStarted, contract.EvToolResult
	tests := []struct {
		name string
		runs []delegatedRun
		want string
	}{{
		name: "by time, the run's own first at a tie",
		runs: []delegatedRun{
			{events: []contract.RunEvent{ev(1, started, "a"), ev(1, started, "b"), ev(9, "own", "")}},
			{session: "a", events: []contract.RunEvent{ev(2, "a1", ""), ev(5, "a2", "")}},
			{session: "b", events: []contract.RunEvent{ev(3, "b1", ""), ev(9, "b2", "")}},
		},
		want: "subflow_started:a subflow_started:b a1 b1 a2 own b2",
	}, {
		name: "not before the start, whatever the clock",
		runs: []delegatedRun{
			{events: []contract.RunEvent{ev(5, started, "a")}},
			{session: "a", events: []contract.RunEvent{ev(7, "a1", ""), ev(2, "a2", "")}},
		},
		want: "subflow_started:a a1 a2",
	}, {
		name: "a run's events before what ends its call, whatever the clock",
		runs: []delegatedRun{
			{events: []contract.RunEvent{call(ev(1, started, "a"), "c"), call(ev(5, result, "c"), "c"), ev(5, "own", "")}},
			{session: "a", events: []contract.RunEvent{
				in(ev(2, "a1", ""), "c"), call(in(ev(3, started, "b"), "c"), "d"), in(ev(6, "a2", ""), "c"), call(in(ev(7, result, "d"), "c"), "d"),
			}},
			{session: "b", events: []contract.RunEvent{in(ev(4, "b1", ""), "c", "d"), in(ev(8, "b2", ""), "c", "d")}},
		},
		want: "subflow_started:a a1 subflow_started:b b1 a2 b2 tool_result:d tool_result:c own",
	}, {
		name: "a run whose start is missing goes last",
		runs: []delegatedRun{
			{events: []contract.RunEvent{ev(5, "own", "")}},
			{session: "a", events: []contract.RunEvent{ev(1, "a1", "")}},
		},
		want: "own a1",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range interleave(tt.runs) {
				s := string(e.Kind)
				if e.Text != "" {
					s += ":" + e.Text
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tt.want, strings.Join(got, " ")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
