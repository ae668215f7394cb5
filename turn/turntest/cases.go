package turntest

import (
	"encoding/json"

	"github.com/batonrt/baton/contract"
)

// Case names one behaviour a provider must reproduce.
type Case string

const (
	CaseText               Case = "text"
	CaseTools              Case = "tools"
	CaseParallelTools      Case = "parallel_tools"
	CaseThinking           Case = "thinking"
	CaseUsage              Case = "usage"
	CaseErrorFrame         Case = "error_frame"
	CaseRateLimited        Case = "rate_limited"
	CaseServerErrorThenOK  Case = "server_error_then_ok"
	CaseCutMidToolCall     Case = "cut_mid_tool_call"
	CaseMalformedArguments Case = "malformed_arguments"
	CaseMaxTokensMidCall   Case = "max_tokens_mid_tool_call"
	CaseNeverEnds          Case = "never_ends"
	CaseCutAfterStop       Case = "cut_after_stop"
	CaseSplitCharacters    Case = "split_characters"
	CaseResponse           Case = "response"
)

// ResponseModel and ResponseID are what the reply of CaseResponse says of
// itself: the model that answered, a dated version of the one asked, and
// the reply's id.
const (
	ResponseModel = "test-model-2025-01-01"
	ResponseID    = "reply-1"
)

// Cases lists every case in the order Run drives them.
var Cases = []Case{
	CaseText, CaseTools, CaseParallelTools, CaseThinking, CaseUsage, CaseErrorFrame,
	CaseRateLimited, CaseServerErrorThenOK, CaseCutMidToolCall, CaseMalformedArguments, CaseMaxTokensMidCall, CaseNeverEnds,
	CaseCutAfterStop, CaseSplitCharacters, CaseResponse,
}

// WeatherTool is the one tool every request offers.
var WeatherTool = contract.ToolDescriptor{
	Name:        "get_weather",
	Description: "Current weather for a city.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

// Request is what the suite asks for in case c: one user question about
// the weather in Paris, with WeatherTool offered, and low thinking in the
// thinking case.
func Request(c Case) contract.ModelRequest {
	req := contract.ModelRequest{
		Model:           "test-model",
		System:          "You are a test.",
		History:         contract.HistoryOf(contract.UserText("What's the weather in Paris?")),
		Tools:           []contract.ToolDescriptor{WeatherTool},
		MaxOutputTokens: 256,
		Turn:            1,
	}
	if c == CaseThinking {
		req.Thinking = contract.ThinkingLow
	}
	return req
}
