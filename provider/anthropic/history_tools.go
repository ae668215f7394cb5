package anthropic

import (
	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// calledTools defines the tools msgs call, once each in the order of
// their first call, for a request that offers none: the API refuses
// messages holding tool_use or tool_result blocks without tools defined,
// which a run that offers no tools after one that did would send. The
// request then goes with tool_choice none, so none of them is called.
func calledTools(msgs []sdk.MessageParam) []sdk.ToolUnionParam {
	var out []sdk.ToolUnionParam
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.OfAssistant == nil {
			continue
		}
		for _, b := range m.OfAssistant.Content {
			if b.OfToolUse == nil || seen[b.OfToolUse.Name] {
				continue
			}
			seen[b.OfToolUse.Name] = true
			tool := sdk.ToolParam{
				Name:        b.OfToolUse.Name,
				Description: sdk.String("No longer offered: it is defined only because earlier messages call it."),
				InputSchema: sdk.ToolInputSchemaParam{Properties: map[string]any{}},
			}
			out = append(out, sdk.ToolUnionParam{OfTool: &tool})
		}
	}
	return out
}
