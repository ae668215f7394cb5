package anthropic

import (
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/batonrt/baton/contract"
)

// applySampling puts the request options on the params. The Messages API
// has no seed, so Sampling.Seed is left out; temperature and top_p, which
// this SDK version has no fields for, go as extra body fields. Stop
// sequences of whitespace alone, which the API refuses, are left out. A
// request without tools takes no tool_choice.
func applySampling(p *sdk.MessageNewParams, s contract.Sampling) {
	extra := map[string]any{}
	if s.Temperature != nil {
		extra["temperature"] = *s.Temperature
	}
	if s.TopP != nil {
		extra["top_p"] = *s.TopP
	}
	if len(extra) > 0 {
		p.SetExtraFields(extra)
	}
	for _, seq := range s.Stop {
		if strings.TrimSpace(seq) != "" {
			p.StopSequences = append(p.StopSequences, seq)
		}
	}
	if len(p.Tools) == 0 {
		return
	}
	p.ToolChoice = toolChoice(s)
}

// toolChoice maps the choice; one call per reply (ParallelToolCalls
// false) is asked with disable_parallel_tool_use, which "none" lacks.
func toolChoice(s contract.Sampling) sdk.ToolChoiceUnionParam {
	var serial sdk.ToolChoiceAutoParam
	if s.ParallelToolCalls != nil && !*s.ParallelToolCalls {
		serial.DisableParallelToolUse = sdk.Bool(true)
	}
	if name, ok := s.ToolChoice.Tool(); ok {
		return sdk.ToolChoiceUnionParam{OfTool: &sdk.ToolChoiceToolParam{Name: name, DisableParallelToolUse: serial.DisableParallelToolUse}}
	}
	switch s.ToolChoice {
	case contract.ToolChoiceRequired:
		return sdk.ToolChoiceUnionParam{OfAny: &sdk.ToolChoiceAnyParam{DisableParallelToolUse: serial.DisableParallelToolUse}}
	case contract.ToolChoiceNone:
		return sdk.ToolChoiceUnionParam{OfNone: &sdk.ToolChoiceNoneParam{}}
	case contract.ToolChoiceAuto:
		return sdk.ToolChoiceUnionParam{OfAuto: &serial}
	}
	if serial.DisableParallelToolUse.Valid() {
		return sdk.ToolChoiceUnionParam{OfAuto: &serial}
	}
	return sdk.ToolChoiceUnionParam{}
}
