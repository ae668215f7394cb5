package ledger

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func assistant(blocks ...contract.Block) *contract.Turn {
	return &contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}
}

func TestTranscript(t *testing.T) {
	call := contract.ToolCall{ID: "c1", Name: "read", Arguments: `{"p":1}`}
	tests := []struct {
		name   string
		events []contract.RunEvent
		want   []AssembledTurn
	}{
		{
			name: "deltas then completion",
			events: []contract.RunEvent{
				{RunID: "r", Kind: contract.EvThinkingDelta, Text: "hm"},
				{RunID: "r", Kind: contract.EvTextDelta, Text: "Hel"},
				{RunID: "r", Kind: contract.EvTextDelta, Text: "lo"},
				{RunID: "r", Kind: contract.EvTurnCompleted, Turn: assistant(
					contract.Block{Kind: contract.BlockThinking, Text: "hm"}, contract.TextBlock("Hello"), contract.CallBlock(call))},
			},
			want: []AssembledTurn{{RunID: "r", Text: "Hello", Thinking: "hm", Calls: []contract.ToolCall{call}, Complete: true}},
		},
		{
			name: "committed turn wins over a lossy stream",
			events: []contract.RunEvent{
				{RunID: "r", Kind: contract.EvTextDelta, Text: "Hel"},
				{RunID: "r", Kind: contract.EvTurnCompleted, Turn: assistant(contract.TextBlock("Hello"))},
				{RunID: "r", Kind: contract.EvTurnCompleted, Turn: assistant(contract.TextBlock("again"))},
			},
			want: []AssembledTurn{{RunID: "r", Text: "Hello", Complete: true}, {RunID: "r", Text: "again", Complete: true}},
		},
		{
			name: "a retry drops the broken attempt's deltas",
			events: []contract.RunEvent{
				{RunID: "r", Kind: contract.EvThinkingDelta, Text: "hm"},
				{RunID: "r", Kind: contract.EvTextDelta, Text: "Hel"},
				{RunID: "r", Kind: contract.EvModelRetry, Text: "stream broken"},
				{RunID: "r", Kind: contract.EvTextDelta, Text: "Hello"},
			},
			want: []AssembledTurn{{RunID: "r", Text: "Hello"}},
		},
		{
			name: "a run ending mid-turn keeps what the deltas carried",
			events: []contract.RunEvent{
				{RunID: "r", Kind: contract.EvTextDelta, Text: "par"},
				{RunID: "r", Kind: contract.EvTextDelta, Text: "tial"},
				{RunID: "r", Kind: contract.EvRunFaulted},
			},
			want: []AssembledTurn{{RunID: "r", Text: "partial"}},
		},
		{
			name: "open turn shows its deltas",
			events: []contract.RunEvent{
				{RunID: "r", Kind: contract.EvTextDelta, Text: "par"},
				{RunID: "r", Kind: contract.EvTextDelta, Text: "tial"},
			},
			want: []AssembledTurn{{RunID: "r", Text: "partial"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := NewTranscript()
			for _, e := range tt.events {
				tr.Observe(e)
			}
			if diff := cmp.Diff(tt.want, tr.Turns()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUsageMeterCost(t *testing.T) {
	prices := PriceTable{"m": {Input: 2, Output: 8, Cached: 0.5}}
	m := NewUsageMeter("m", prices)
	for _, u := range []contract.Usage{
		{InputTokens: 1_000_000, CachedTokens: 400_000, OutputTokens: 100_000, ModelCalls: 1},
		{InputTokens: 500_000, OutputTokens: 50_000, ModelCalls: 1},
	} {
		m.Observe(contract.RunEvent{RunID: "r1", Kind: contract.EvTurnCompleted, Usage: &u})
	}
	m.Observe(contract.RunEvent{RunID: "r2", Kind: contract.EvTextDelta})
	wantUsage := contract.Usage{InputTokens: 1_500_000, CachedTokens: 400_000, OutputTokens: 150_000, ModelCalls: 2}
	if diff := cmp.Diff(wantUsage, m.Total()); diff != "" {
		t.Errorf("total mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantUsage, m.Run("r1")); diff != "" {
		t.Errorf("run mismatch (-want +got):\n%s", diff)
	}
	got, err := m.Cost()
	if err != nil {
		t.Fatal(err)
	}
	want := Cost{Input: 2.2, Cached: 0.2, Output: 1.2, Total: 3.6}
	approx := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-9 })
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("cost mismatch (-want +got):\n%s", diff)
	}
	if _, err := NewUsageMeter("other", prices).Cost(); !errors.Is(err, ErrUnknownModel) {
		t.Errorf("unknown model: got %v, want ErrUnknownModel", err)
	}
}

func TestToolLatency(t *testing.T) {
	l := NewToolLatency()
	ms := func(n int64) contract.Timestamp { return contract.Timestamp(n * int64(time.Millisecond)) }
	for _, e := range []contract.RunEvent{
		{Kind: contract.EvToolStarted, At: ms(10), Call: &contract.ToolCall{ID: "a", Name: "read"}},
		{Kind: contract.EvToolStarted, At: ms(12), Call: &contract.ToolCall{ID: "b", Name: "grep"}},
		{Kind: contract.EvToolResult, At: ms(40), Result: &contract.ToolResult{CallID: "b", Name: "grep"}},
		{Kind: contract.EvToolResult, At: ms(50), Result: &contract.ToolResult{CallID: "a"}},
		{Kind: contract.EvToolResult, At: ms(60), Result: &contract.ToolResult{CallID: "never-started", Name: "x"}},
		{Kind: contract.EvToolStarted, At: ms(70), Result: &contract.ToolResult{CallID: "c", Name: "read"}},
		{Kind: contract.EvToolResult, At: ms(90), Result: &contract.ToolResult{CallID: "c", Name: "read"}},
	} {
		l.Observe(e)
	}
	wantCalls := []CallLatency{
		{CallID: "b", Name: "grep", Duration: 28 * time.Millisecond},
		{CallID: "a", Name: "read", Duration: 40 * time.Millisecond},
		{CallID: "c", Name: "read", Duration: 20 * time.Millisecond},
	}
	if diff := cmp.Diff(wantCalls, l.Calls()); diff != "" {
		t.Errorf("calls mismatch (-want +got):\n%s", diff)
	}
	wantStats := []ToolStat{
		{Name: "grep", Calls: 1, Total: 28 * time.Millisecond, Max: 28 * time.Millisecond},
		{Name: "read", Calls: 2, Total: 60 * time.Millisecond, Max: 40 * time.Millisecond},
	}
	if diff := cmp.Diff(wantStats, l.ByTool()); diff != "" {
		t.Errorf("stats mismatch (-want +got):\n%s", diff)
	}
	if got := wantStats[1].Mean(); got != 30*time.Millisecond {
		t.Errorf("Mean = %s, want 30ms", got)
	}
}

// TestAccumulatorsKeepDelegatedRunsApart: a child run's events (Subflow
// set) reuse its parent's call ids and stream text of their own; the
// transcript stays the root run's, latency keys calls by path, and usage
// counts every run.
func TestAccumulatorsKeepDelegatedRunsApart(t *testing.T) {
	child := func(ev contract.RunEvent) contract.RunEvent {
		ev.Subflow, ev.RunID = []string{"c1"}, "run-child"
		return ev
	}
	call := &contract.ToolCall{ID: "c1", Name: "search"}
	inner := &contract.ToolCall{ID: "c1", Name: "fetch"}
	usage := &contract.Usage{InputTokens: 5, ModelCalls: 1}
	events := []contract.RunEvent{
		{Kind: contract.EvTextDelta, RunID: "run-1", Text: "parent "},
		{Kind: contract.EvToolStarted, RunID: "run-1", Call: call, At: 10},
		child(contract.RunEvent{Kind: contract.EvTextDelta, Text: "CHILD"}),
		child(contract.RunEvent{Kind: contract.EvToolStarted, Call: inner, At: 20}),
		child(contract.RunEvent{Kind: contract.EvToolResult, Call: inner, Result: &contract.ToolResult{CallID: "c1", Name: "fetch"}, At: 25}),
		child(contract.RunEvent{Kind: contract.EvTurnCompleted, Turn: &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("CHILD")}}, Usage: usage}),
		{Kind: contract.EvToolResult, RunID: "run-1", Call: call, Result: &contract.ToolResult{CallID: "c1", Name: "search"}, At: 40},
		{Kind: contract.EvTextDelta, RunID: "run-1", Text: "text"},
		{Kind: contract.EvTurnCompleted, RunID: "run-1", Turn: &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("parent text")}}, Usage: usage},
	}
	tr, lat, meter := NewTranscript(), NewToolLatency(), NewUsageMeter("m", nil)
	for _, ev := range events {
		tr.Observe(ev)
		lat.Observe(ev)
		meter.Observe(ev)
	}
	if got := tr.Text(); got != "parent text" {
		t.Errorf("transcript %q, want the root run's text alone", got)
	}
	want := []CallLatency{{CallID: "c1", Name: "fetch", Duration: 5}, {CallID: "c1", Name: "search", Duration: 30}}
	if diff := cmp.Diff(want, lat.Calls()); diff != "" {
		t.Errorf("latency mismatch (-want +got):\n%s", diff)
	}
	if got := meter.Total().ModelCalls; got != 2 {
		t.Errorf("meter counts %d model calls, want 2 (parent and child)", got)
	}
}
