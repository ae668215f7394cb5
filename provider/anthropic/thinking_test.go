package anthropic

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestThinkingRefusesOptionsTheAPIRefuses: with extended thinking the
// Messages API answers 400 to a temperature other than 1, a top_p below
// 0.95 and a tool_choice that forces a tool call. Such a request must
// fail before it is sent, naming the option, and the options the API
// does take with thinking must still go out.
func TestThinkingRefusesOptionsTheAPIRefuses(t *testing.T) {
	one, cold, nucleus, wide := 1.0, 0.2, 0.9, 0.95
	tests := []struct {
		name     string
		sampling contract.Sampling
		noTools  bool
		refused  string // the field the error names; empty when sent
		want     map[string]any
	}{
		{name: "temperature 0.2", sampling: contract.Sampling{Temperature: &cold}, refused: "Sampling.Temperature"},
		{name: "top_p 0.9", sampling: contract.Sampling{TopP: &nucleus}, refused: "Sampling.TopP"},
		{name: "required tool", sampling: contract.Sampling{ToolChoice: contract.ToolChoiceRequired}, refused: "Sampling.ToolChoice"},
		{name: "named tool", sampling: contract.Sampling{ToolChoice: "get_weather"}, refused: "Sampling.ToolChoice"},
		{name: "temperature 1 and top_p 0.95", sampling: contract.Sampling{Temperature: &one, TopP: &wide}, want: map[string]any{"top_p": 0.95}},
		{name: "auto", sampling: contract.Sampling{ToolChoice: contract.ToolChoiceAuto}, want: map[string]any{"tool_choice": map[string]any{"type": "auto"}}},
		{name: "none", sampling: contract.Sampling{ToolChoice: contract.ToolChoiceNone}, want: map[string]any{"tool_choice": map[string]any{"type": "none"}}},
		{name: "required but no tools sent", sampling: contract.Sampling{ToolChoice: contract.ToolChoiceRequired}, noTools: true, want: map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.Thinking = contract.ThinkingLow
			req.Sampling = tt.sampling
			if tt.noTools {
				req.Tools = nil
			}
			if tt.refused == "" {
				if diff := cmp.Diff(tt.want, sentOptions(t, req)); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
				return
			}
			srv, p := suite.Serve(t, "text")
			_, err := transcripttest.Collect(context.Background(), p, req)
			if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tt.refused) {
				t.Errorf("got %v, want %v naming %s", err, ErrBadRequest, tt.refused)
			}
			if srv.Served() != 0 {
				t.Errorf("a request the API refuses was sent")
			}
		})
	}
}

// TestCheckConfig: the same conflicts, and a tool schema no request could
// carry, found in an agent's config before any run, name the config's
// fields.
func TestCheckConfig(t *testing.T) {
	cold := 0.2
	transcripttest.CheckConfig(t, New(), []transcripttest.ConfigCase{
		{Name: "no thinking", Config: contract.AgentConfig{Sampling: contract.Sampling{Temperature: &cold, ToolChoice: contract.ToolChoiceRequired}}},
		{Name: "thinking alone", Config: contract.AgentConfig{Thinking: contract.ThinkingHigh}},
		{Name: "thinking, cold and forced", Config: contract.AgentConfig{Thinking: contract.ThinkingHigh, Sampling: contract.Sampling{Temperature: &cold, ToolChoice: "get_weather"}}, Fields: []string{"Sampling.Temperature", "Sampling.ToolChoice"}},
		{Name: "a union tool schema", Config: contract.AgentConfig{Tools: []contract.ToolDescriptor{
			{Name: "merged", InputSchema: []byte(`{"anyOf":[{"type":"object"},{"properties":{"a":{}}}]}`)},
			{Name: "scalar", InputSchema: []byte(`{"oneOf":[{"type":"string"},{"type":"null"}]}`)},
		}}, Fields: []string{"Tools[1].InputSchema"}},
	})
}

// TestThinkingBudgetBelowMaxTokens: the API refuses max_tokens not above
// thinking.budget_tokens. Whatever MaxOutputTokens says, the reply's
// max_tokens is the answer's length (the default when unset) plus the
// budget, so thinking never starves the answer.
func TestThinkingBudgetBelowMaxTokens(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		req := basicRequest()
		req.Thinking = rapid.SampledFrom([]contract.ThinkingLevel{contract.ThinkingLow, contract.ThinkingMedium, contract.ThinkingHigh}).Draw(rt, "thinking")
		// Under claude-sonnet-4-5's cap; TestModelLimits
		// goes past it.
		req.MaxOutputTokens = rapid.IntRange(-2, 32000).Draw(rt, "max output")
		sent := suite.Sent(t, req, "max_tokens", "thinking")
		maxTokens := int64(sent["max_tokens"].(float64))
		budget := int64(sent["thinking"].(map[string]any)["budget_tokens"].(float64))
		answer := int64(max(req.MaxOutputTokens, 0))
		if answer == 0 {
			answer = contract.DefaultMaxOutputTokens
		}
		if budget != ThinkingBudget[req.Thinking] || maxTokens != answer+budget {
			rt.Fatalf("max_tokens %d, budget_tokens %d: want %d + %d", maxTokens, budget, answer, ThinkingBudget[req.Thinking])
		}
	})
}

// TestThinkingOffWhereTheToolLoopHasNone: with thinking on, the API
// refuses a request whose tool loop (the last user message answers its
// calls) began with an assistant message that does not start with a
// thinking block ("a final assistant message must start with a thinking block
// ... To avoid this requirement, disable thinking"). Such a turn comes
// from another provider, whose thinking is unsigned and not sent, or
// from before thinking was switched on. That one request goes without
// thinking, as the API advises, rather than failing a run over history
// it cannot change; a tool loop that did start with thinking keeps it.
func TestThinkingOffWhereTheToolLoopHasNone(t *testing.T) {
	call := contract.ToolCall{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	result := contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "toolu_1", Name: "get_weather", Content: "18C"})}}
	tests := []struct {
		name  string
		reply []contract.Block
		then  []contract.Turn
		want  map[string]any
	}{
		{"unsigned thinking", []contract.Block{{Kind: contract.BlockThinking, Text: "From elsewhere."}, contract.CallBlock(call)}, []contract.Turn{result},
			map[string]any{"max_tokens": 256.0}},
		{"no thinking, steered", []contract.Block{contract.TextBlock("Looking."), contract.CallBlock(call)}, []contract.Turn{result, contract.UserText("Hurry.")},
			map[string]any{"max_tokens": 256.0}},
		{"signed thinking", []contract.Block{{Kind: contract.BlockThinking, Text: "One lookup.", Signature: "sig"}, contract.CallBlock(call)}, []contract.Turn{result},
			map[string]any{"max_tokens": 2304.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 2048.0}}},
		{"loop over, a new prompt", []contract.Block{contract.TextBlock("18C.")}, []contract.Turn{contract.UserText("And Rome?")},
			map[string]any{"max_tokens": 2304.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 2048.0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.Thinking = contract.ThinkingLow
			req.History = req.History.Append(contract.Turn{Role: contract.RoleAssistant, Blocks: tt.reply})
			for _, turn := range tt.then {
				req.History = req.History.Append(turn)
			}
			if diff := cmp.Diff(tt.want, suite.Sent(t, req, "max_tokens", "thinking")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
