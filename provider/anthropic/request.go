package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// ErrBadRequest is wrapped by every error about a request that cannot be
// sent as it stands.
var ErrBadRequest = errors.New("anthropic: bad request")

// ThinkingBudget is the thinking budget, in tokens, of each level. The
// reply's max_tokens grows by the budget so thinking never starves the
// answer; where that would pass the model's output cap, the budget is
// cut to fit.
var ThinkingBudget = map[contract.ThinkingLevel]int64{
	contract.ThinkingLow:    2048,
	contract.ThinkingMedium: 8192,
	contract.ThinkingHigh:   24576,
}

func buildParams(req contract.ModelRequest) (sdk.MessageNewParams, error) {
	if req.Model == "" {
		return sdk.MessageNewParams{}, fmt.Errorf("%w: model is empty", ErrBadRequest)
	}
	msgs, err := messages(req.History)
	if err != nil {
		return sdk.MessageNewParams{}, err
	}
	tools, err := toolParams(req.Tools)
	if err != nil {
		return sdk.MessageNewParams{}, err
	}
	offered := len(tools) > 0
	if !offered {
		tools = calledTools(msgs)
	}
	p := sdk.MessageNewParams{Model: sdk.Model(req.Model), Messages: msgs, Tools: tools, MaxTokens: answerTokens(req.MaxOutputTokens)}
	if req.System != "" {
		p.System = []sdk.TextBlockParam{{Text: req.System}}
	}
	if req.Output != nil {
		var schema map[string]any
		if err := json.Unmarshal(req.Output.Schema, &schema); err != nil {
			return sdk.MessageNewParams{}, fmt.Errorf("%w: output schema %q: %w", ErrBadRequest, req.Output.Name, err)
		}
		p.OutputConfig.Format = sdk.JSONOutputFormatParam{Schema: schema}
	}
	thinking, err := requestThinking(req.Thinking, msgs)
	if err != nil {
		return sdk.MessageNewParams{}, err
	}
	if bad := conflicts(req.Model, thinking, req.Sampling, req.MaxOutputTokens, offered); len(bad) > 0 {
		return sdk.MessageNewParams{}, fmt.Errorf("%w: %s %s", ErrBadRequest, bad[0].Field, bad[0].Reason)
	}
	if thinking != contract.ThinkingOff {
		budget := thinkingBudget(req.Model, thinking, p.MaxTokens)
		p.Thinking = sdk.ThinkingConfigParamOfEnabled(budget)
		p.MaxTokens += budget
	}
	applySampling(&p, oneOfSamplers(req.Model, req.Sampling))
	if !offered && len(tools) > 0 {
		p.ToolChoice = sdk.ToolChoiceUnionParam{OfNone: &sdk.ToolChoiceNoneParam{}}
	}
	return p, nil
}

// messages maps history onto alternating messages that open with the
// user's: tool turns become user messages of tool_result blocks,
// consecutive turns of one role merge, and blank turns are left out.
func messages(h contract.History) ([]sdk.MessageParam, error) {
	var out []sdk.MessageParam
	var last contract.Role
	for i, t := range h.Turns() {
		role := contract.RoleUser
		switch t.Role {
		case contract.RoleUser, contract.RoleTool:
		case contract.RoleAssistant:
			role = contract.RoleAssistant
		default:
			return nil, fmt.Errorf("%w: turn %d has unknown role %q", ErrBadRequest, i, t.Role)
		}
		blocks, err := contentBlocks(t)
		if err != nil {
			return nil, fmt.Errorf("%w: turn %d: %w", ErrBadRequest, i, err)
		}
		if len(blocks) == 0 {
			continue
		}
		switch n := len(out); {
		case n > 0 && last == role && role == contract.RoleUser:
			out[n-1].OfUser.Content = append(out[n-1].OfUser.Content, blocks...)
		case n > 0 && last == role:
			out[n-1].OfAssistant.Content = append(out[n-1].OfAssistant.Content, blocks...)
		case role == contract.RoleUser:
			out = append(out, sdk.NewUserMessage(blocks...))
		default:
			out = append(out, sdk.NewAssistantMessage(blocks...))
		}
		last = role
	}
	if len(out) == 0 || out[0].OfUser == nil {
		// The API refuses a conversation that does not open with the
		// user, which one whose first turns are blank, or the
		// assistant's, would not.
		out = append([]sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(openingText))}, out...)
	}
	uniqueCallIDs(out)
	trimFinalAssistant(out)
	return out, nil
}

// openingText opens a conversation that has no user text to open with.
const openingText = "(conversation start)"

// trimFinalAssistant cuts the trailing whitespace off the text that ends
// msgs when the assistant wrote it: a request ending with the assistant's
// text continues it, and the API refuses that text ending in whitespace,
// which a reply the model ended with a line feed does.
func trimFinalAssistant(msgs []sdk.MessageParam) {
	n := len(msgs)
	if n == 0 || msgs[n-1].OfAssistant == nil {
		return
	}
	content := msgs[n-1].OfAssistant.Content
	if b := content[len(content)-1]; b.OfText != nil {
		// Never blank: blank text is not sent at all.
		b.OfText.Text = strings.TrimRightFunc(b.OfText.Text, unicode.IsSpace)
	}
}

func contentBlocks(t contract.Turn) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for _, b := range t.Blocks {
		switch {
		case b.Kind == contract.BlockText && strings.TrimSpace(b.Text) != "":
			// The API refuses blank text, which models do write before a
			// tool call.
			out = append(out, sdk.NewTextBlock(b.Text))
		case b.Kind == contract.BlockThinking && b.Signature != "" && t.Role == contract.RoleAssistant:
			// Unsigned thinking (from another provider) would be refused.
			out = append(out, sdk.NewThinkingBlock(b.Signature, b.Text))
		case b.Kind == contract.BlockRedactedThinking && b.Signature != "" && t.Role == contract.RoleAssistant:
			// Sent back verbatim: the API requires the last assistant
			// turn's thinking, redacted or not, when continuing after tool use.
			out = append(out, sdk.NewRedactedThinkingBlock(b.Signature))
		case b.Kind == contract.BlockToolCall && b.Call != nil:
			out = append(out, sdk.NewToolUseBlock(wireCallID(b.Call.ID), callInput(b.Call.Arguments), turn.WireToolName(b.Call.Name)))
		case b.Kind == contract.BlockToolResult && b.Result != nil:
			out = append(out, toolResultBlock(*b.Result))
		case b.Kind == contract.BlockImage && b.Image != nil:
			img, err := imageBlock(*b.Image)
			if err != nil {
				return nil, err
			}
			out = append(out, img)
		}
	}
	return out, nil
}

// toolResultBlock leaves a blank result without content: the API
// refuses blank text, and a tool that printed nothing is common. A blank
// error result says that the call failed instead, since the API refuses
// an error result without content.
func toolResultBlock(r contract.ToolResult) sdk.ContentBlockParamUnion {
	if strings.TrimSpace(r.Content) != "" {
		return sdk.NewToolResultBlock(wireCallID(r.CallID), r.Content, r.IsError)
	}
	if r.IsError {
		return sdk.NewToolResultBlock(wireCallID(r.CallID), blankFailure(r.Name), true)
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &sdk.ToolResultBlockParam{ToolUseID: wireCallID(r.CallID), IsError: sdk.Bool(r.IsError)}}
}

// blankFailure is what a failed call that said nothing is sent as.
func blankFailure(tool string) string {
	if tool == "" {
		return "the tool call failed and said nothing more"
	}
	return fmt.Sprintf("the call of %s failed and said nothing more", tool)
}

// wireCallID is a call id as the API accepts it: ids from other servers
// may hold characters outside [a-zA-Z0-9_-] (Kimi's are
// "functions.get_weather:0"), which it refuses; such an id goes as call_
// and its valid characters. A call and its result map to the same id.
func wireCallID(id string) string {
	valid := func(r rune) bool { return contract.ValidToolName(string(r)) }
	if id != "" && strings.IndexFunc(id, func(r rune) bool { return !valid(r) }) < 0 {
		return id
	}
	b := []byte("call_")
	for _, r := range id {
		if valid(r) {
			b = append(b, byte(r))
		} else {
			b = append(b, '_')
		}
	}
	return string(b)
}

// callInput sends the model's arguments back as it wrote them when they
// are a JSON object; anything else cannot be a tool_use input, and the
// call's error result already told the model what was wrong.
func callInput(args string) any {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return map[string]any{}
	}
	return json.RawMessage(args)
}

func imageBlock(img contract.ImageRef) (sdk.ContentBlockParamUnion, error) {
	rest, ok := strings.CutPrefix(img.URI, "data:")
	if !ok {
		return sdk.NewImageBlock(sdk.URLImageSourceParam{URL: img.URI}), nil
	}
	meta, data, ok := strings.Cut(rest, ",")
	mediaType, isBase64 := strings.CutSuffix(meta, ";base64")
	if !ok || !isBase64 {
		return sdk.ContentBlockParamUnion{}, fmt.Errorf("image data URI must be base64")
	}
	if img.MediaType != "" {
		mediaType = img.MediaType
	}
	return sdk.NewImageBlock(sdk.Base64ImageSourceParam{Data: data, MediaType: sdk.Base64ImageSourceMediaType(mediaType)}), nil
}

func toolParams(tools []contract.ToolDescriptor) ([]sdk.ToolUnionParam, error) {
	var out []sdk.ToolUnionParam
	for _, t := range tools {
		schema, err := inputSchema(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("%w: tool %q input schema: %w", ErrBadRequest, t.Name, err)
		}
		tool := sdk.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tool.Description = sdk.String(t.Description)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: &tool})
	}
	return out, nil
}

// inputSchema is the tool's input schema as the API takes it: an object
// schema, as turn.ToolSchema makes it. The API requires input_schema;
// empty properties keep it on the wire.
func inputSchema(raw json.RawMessage) (sdk.ToolInputSchemaParam, error) {
	m, err := turn.ToolSchema(raw)
	if err != nil {
		return sdk.ToolInputSchemaParam{}, err
	}
	s := sdk.ToolInputSchemaParam{Properties: m["properties"]}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	for k, v := range m {
		if k != "type" && k != "properties" && k != "required" {
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[k] = v
		}
	}
	return s, nil
}
