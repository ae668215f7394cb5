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
	started := contract.EvSubflowStarted
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
