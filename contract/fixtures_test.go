package contract_test

import (
	"encoding/json"
	"time"

	"github.com/batonrt/baton/contract"
)

// sampleSignals holds one fully populated signal per kind, in
// contract.SignalKinds order.
func sampleSignals() []contract.Signal {
	user := contract.UserText("what is the weather in Oslo?")
	return []contract.Signal{
		contract.Submitted{
			RunID:     "run-1",
			Input:     []contract.Turn{user},
			Retrieved: []contract.Turn{{Role: contract.RoleUser, Mark: contract.MarkRetrieved, Blocks: []contract.Block{contract.TextBlock("Oslo is in Norway <&>")}}},
			Tools:     []contract.ToolDescriptor{{Name: "weather", Description: "forecast", InputSchema: json.RawMessage(`{"type":"object"}`), Idempotent: true, Timeout: 3 * time.Second}},
			At:        1_700_000_000_000_000_001,
		},
		contract.Steered{Input: []contract.Turn{contract.UserText("use celsius")}, At: 2},
		contract.FollowUpQueued{Input: []contract.Turn{contract.UserText("and tomorrow?")}, At: 3},
		contract.ModelReplied{
			Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
				{Kind: contract.BlockThinking, Text: "need the tool", Signature: "sig=="},
				contract.TextBlock("Let me check."),
				contract.CallBlock(contract.ToolCall{ID: "c1", Name: "weather", Arguments: `{"city":"Oslo"}`}),
				{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "file:///map.png", MediaType: "image/png"}},
			}, Tokens: 42},
			Usage: contract.Usage{InputTokens: 100, OutputTokens: 20, CachedTokens: 5, ReasoningTokens: 7, ModelCalls: 1},
			Stop:  contract.StopToolUse,
			At:    4,
		},
		contract.ModelFailed{Failure: contract.FailRateLimited, Message: "429 slow down", Retryable: true, At: 5},
		contract.ToolStarted{CallID: "c1", At: 6},
		contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: "12°C \"cloudy\"", IsError: true, Truncated: true}, At: 7},
		contract.ApprovalResolved{CallID: "c1", Approved: true, Scope: contract.ScopeSession, Reason: "fine", At: 8},
		contract.HumanAnswered{CallID: "c2", Answer: "Celsius, \"please\"", At: 13},
		contract.Compacted{Summary: "the user asked about Oslo", Cut: 3, At: 9},
		contract.CompactionFailed{Reason: "model down", At: 10},
		contract.AbortRequested{Mode: contract.AbortAfterTools, Reason: "user pressed stop", At: 11},
		contract.Resumed{At: 12},
		contract.DelegateSettled{CallID: "c1", Session: "sess-1/4.0", Outcome: contract.ToolOutcome{Content: "Oslo: 12°C"}, Usage: contract.Usage{InputTokens: 30, OutputTokens: 8, ModelCalls: 2, ToolCalls: 1}, At: 13},
		contract.AllowanceShared{Keys: []string{"shell:git status", "weather"}, At: 14},
		contract.ToolsChanged{Tools: []contract.ToolDescriptor{
			{Name: "ev_echo", Description: "Echoes <input> back", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`), NeedsApproval: true, Timeout: 20 * time.Second},
			{Name: "ev_fresh", Idempotent: true, Sequential: true},
		}, At: 15},
	}
}

// sampleSnapshot sets every field of a snapshot.
func sampleSnapshot() contract.RunSnapshot {
	call := contract.ToolCall{ID: "c1", Name: "weather", Arguments: `{"city":"Oslo"}`}
	tool := contract.ToolDescriptor{Name: "weather", NeedsApproval: true, Sequential: true}
	return contract.RunSnapshot{
		SessionID: "sess-1",
		RunID:     "run-1",
		Phase:     contract.PhaseAwaitingTools,
		History: contract.HistoryOf(
			contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock("hi")}, Tokens: 7},
			contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call), contract.CallBlock(contract.ToolCall{ID: "c2", Name: "weather", Arguments: `{}`})}, Tokens: 20},
		),
		Pending: []contract.PendingCall{
			{Call: call, Tool: tool, State: contract.CallStarted},
			{Call: contract.ToolCall{ID: "c2", Name: "weather", Arguments: `{}`}, Tool: tool, State: contract.CallDone,
				Result: &contract.ToolResult{CallID: "c2", Name: "weather", Content: "sunny", IsError: true}},
		},
		Queued:       []contract.QueuedInput{{Kind: contract.InputSteer, Turns: []contract.Turn{contract.UserText("faster")}, At: 5}},
		Turns:        2,
		RunUsage:     contract.Usage{InputTokens: 1, OutputTokens: 2, CachedTokens: 3, ReasoningTokens: 4, ModelCalls: 5, ToolCalls: 6, WallNanos: 7},
		SessionUsage: contract.Usage{InputTokens: 10, OutputTokens: 20, CachedTokens: 30, ReasoningTokens: 40, ModelCalls: 50, ToolCalls: 60, WallNanos: 70},
		Err:          &contract.RunError{Kind: contract.KindConfig, Message: "bad", Fields: []contract.FieldError{{Field: "Model", Reason: "is empty"}}},
		Seq:          9,
		Steps:        4,
		Abort:        contract.AbortAfterTools,
		AbortReason:  "stop",
		RunTools:     []contract.ToolDescriptor{tool},
		Allowed:      []string{"a", "b"},
		Recent:       []string{`weather {"city":"Oslo"}`},
		Warned:       true,
		CompactedAt:  2,
		RunStartedAt: 1,
	}
}

func sampleRecord() contract.Record {
	return contract.Record{Step: 17, Signal: sampleSignals()[6], Effects: "run_tool c1 weather; publish tool_result#3"}
}
