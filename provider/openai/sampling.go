package openai

import (
	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/contract"
)

// applySampling puts the request options on the params. Chat Completions
// refuses tool_choice and parallel_tool_calls on a request without tools,
// so those two are sent only with tools.
func applySampling(p *sdk.ChatCompletionNewParams, s contract.Sampling) {
	if s.Temperature != nil {
		p.Temperature = sdk.Float(*s.Temperature)
	}
	if s.TopP != nil {
		p.TopP = sdk.Float(*s.TopP)
	}
	if len(s.Stop) > 0 {
		p.Stop = sdk.ChatCompletionNewParamsStopUnion{OfStringArray: s.Stop}
	}
	if s.Seed != nil {
		p.Seed = sdk.Int(*s.Seed)
	}
	if len(p.Tools) == 0 {
		return
	}
	if s.ParallelToolCalls != nil {
		p.ParallelToolCalls = sdk.Bool(*s.ParallelToolCalls)
	}
	if name, ok := s.ToolChoice.Tool(); ok {
		p.ToolChoice = sdk.ToolChoiceOptionFunctionToolChoice(sdk.ChatCompletionNamedToolChoiceFunctionParam{Name: name})
	} else if s.ToolChoice != "" {
		p.ToolChoice = sdk.ChatCompletionToolChoiceOptionUnionParam{OfAuto: sdk.String(string(s.ToolChoice))}
	}
}
