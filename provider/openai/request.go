package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// ErrBadRequest is wrapped by every error about a request that cannot be
// sent as it stands.
var ErrBadRequest = errors.New("openai: bad request")

// buildParams maps req onto the API's params as send says: under
// OpenAI's model rules the options req's model refuses are refused and
// the defaults it refuses to be told are left off; otherwise the server
// gets what was asked.
func buildParams(req contract.ModelRequest, send sending) (sdk.ChatCompletionNewParams, error) {
	if send.refusal != "" {
		return sdk.ChatCompletionNewParams{}, fmt.Errorf("%w: %s", ErrBadRequest, send.refusal)
	}
	if req.Model == "" {
		return sdk.ChatCompletionNewParams{}, fmt.Errorf("%w: model is empty", ErrBadRequest)
	}
	msgs, err := messages(req, send.reasoningBack)
	if err != nil {
		return sdk.ChatCompletionNewParams{}, err
	}
	tools, err := toolParams(req.Tools)
	if err != nil {
		return sdk.ChatCompletionNewParams{}, err
	}
	p := sdk.ChatCompletionNewParams{
		Model:         shared.ChatModel(req.Model),
		Messages:      msgs,
		Tools:         tools,
		StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
	}
	switch {
	case req.MaxOutputTokens <= 0:
	case send.maxTokens:
		p.MaxTokens = sdk.Int(int64(req.MaxOutputTokens))
	default:
		p.MaxCompletionTokens = sdk.Int(int64(req.MaxOutputTokens))
	}
	if req.Thinking != contract.ThinkingOff {
		// Only reasoning models accept this; a thinking level is the
		// caller saying the model is one, unless it is one of OpenAI's
		// that is not, which modelConflicts refuses at OpenAI.
		p.ReasoningEffort = shared.ReasoningEffort(req.Thinking)
	}
	sampling := req.Sampling
	if send.modelRules {
		if bad := modelConflicts(req.Model, req.Thinking, sampling, len(tools) > 0); len(bad) > 0 {
			return sdk.ChatCompletionNewParams{}, fmt.Errorf("%w: %s %s", ErrBadRequest, bad[0].Field, bad[0].Reason)
		}
		sampling = modelFamily(req.Model).withoutDefaults(req.Thinking, sampling)
	}
	applySampling(&p, sampling)
	if req.Output != nil {
		if err := applyOutput(&p, *req.Output); err != nil {
			return sdk.ChatCompletionNewParams{}, err
		}
	}
	return p, nil
}

// applyOutput asks for a JSON answer in the schema's shape. Strict mode
// is off: it refuses schemas with optional fields, and baton validates
// the answer either way.
func applyOutput(p *sdk.ChatCompletionNewParams, out contract.OutputSchema) error {
	var schema map[string]any
	if err := json.Unmarshal(out.Schema, &schema); err != nil {
		return fmt.Errorf("%w: output schema %q: %w", ErrBadRequest, out.Name, err)
	}
	p.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
		JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: out.Name, Schema: schema},
	}
	return nil
}

func messages(req contract.ModelRequest, reasoningBack bool) ([]sdk.ChatCompletionMessageParamUnion, error) {
	var out []sdk.ChatCompletionMessageParamUnion
	if req.System != "" {
		out = append(out, sdk.SystemMessage(req.System))
	}
	for i, t := range req.History.Turns() {
		var err error
		switch t.Role {
		case contract.RoleUser:
			if m, ok := userMessage(t); ok {
				out = append(out, m)
			}
		case contract.RoleAssistant:
			if m, ok := assistantMessage(t, reasoningBack); ok {
				out = append(out, m)
			}
		case contract.RoleTool:
			out = appendToolTurn(out, t)
		default:
			err = fmt.Errorf("%w: turn %d has unknown role %q", ErrBadRequest, i, t.Role)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendToolTurn sends a tool turn's results as tool messages, and what
// else it holds (text, images) as a user message after them: a tool
// message takes only its result's text, and the API wants the tool
// messages of a call right after it.
func appendToolTurn(out []sdk.ChatCompletionMessageParamUnion, t contract.Turn) []sdk.ChatCompletionMessageParamUnion {
	rest := contract.Turn{Role: contract.RoleUser}
	for _, b := range t.Blocks {
		switch {
		case b.Kind == contract.BlockToolResult && b.Result != nil:
			out = append(out, sdk.ToolMessage(resultContent(*b.Result), wireCallID(b.Result.CallID)))
		case b.Kind == contract.BlockText, b.Kind == contract.BlockImage:
			rest.Blocks = append(rest.Blocks, b)
		}
	}
	if m, ok := userMessage(rest); ok {
		out = append(out, m)
	}
	return out
}

// userMessage sends plain text as a string and mixes text with images by
// URL as content parts. It reports false when the turn has nothing to
// say: servers such as LM Studio's refuse blank content.
func userMessage(t contract.Turn) (sdk.ChatCompletionMessageParamUnion, bool) {
	var parts []sdk.ChatCompletionContentPartUnionParam
	hasImage := false
	for _, b := range t.Blocks {
		switch {
		case b.Kind == contract.BlockText && strings.TrimSpace(b.Text) != "":
			parts = append(parts, sdk.TextContentPart(b.Text))
		case b.Kind == contract.BlockImage && b.Image != nil:
			hasImage = true
			parts = append(parts, sdk.ImageContentPart(sdk.ChatCompletionContentPartImageImageURLParam{URL: b.Image.URI}))
		case b.Kind == contract.BlockToolResult && b.Result != nil:
			parts = append(parts, sdk.TextContentPart(resultContent(*b.Result)))
		}
	}
	switch {
	case hasImage:
		return sdk.UserMessage(parts), true
	case strings.TrimSpace(t.Text()) != "":
		return sdk.UserMessage(t.Text()), true
	}
	return sdk.ChatCompletionMessageParamUnion{}, false
}

// assistantMessage drops thinking, redacted or not, which Chat Completions
// does not take back, and blank text, which models write before a call
// and some servers refuse, and reports false when nothing else is left. With
// reasoningBack, a message that called tools goes with its thinking as
// reasoning_content (see sending.reasoningBack).
func assistantMessage(t contract.Turn, reasoningBack bool) (sdk.ChatCompletionMessageParamUnion, bool) {
	var a sdk.ChatCompletionAssistantMessageParam
	if reasoningBack && len(t.Calls()) > 0 {
		if r := thinkingText(t); r != "" {
			a.SetExtraFields(map[string]any{"reasoning_content": r})
		}
	}
	if text := t.Text(); strings.TrimSpace(text) != "" {
		a.Content.OfString = sdk.String(text)
	}
	for _, c := range t.Calls() {
		a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
			ID:       wireCallID(c.ID),
			Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: turn.WireToolName(c.Name), Arguments: callArguments(c.Arguments)},
		}})
	}
	if a.Content.OfString.Value == "" && len(a.ToolCalls) == 0 {
		return sdk.ChatCompletionMessageParamUnion{}, false
	}
	return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}, true
}

// thinkingText is the text of t's thinking blocks, joined.
func thinkingText(t contract.Turn) string {
	var b strings.Builder
	for _, blk := range t.Blocks {
		if blk.Kind == contract.BlockThinking {
			b.WriteString(blk.Text)
		}
	}
	return b.String()
}

// callArguments sends a call's arguments back as the model wrote them
// when they are a JSON object. Anything else (text the model broke, or a
// call the token limit cut) goes as {}: servers such as vLLM parse every
// call's arguments in the history and refuse the request otherwise, and
// the call's error result already told the model what was wrong.
func callArguments(args string) string {
	if s := strings.TrimSpace(args); strings.HasPrefix(s, "{") && contract.ValidJSON(s) {
		return args
	}
	return "{}"
}

func toolParams(tools []contract.ToolDescriptor) ([]sdk.ChatCompletionToolUnionParam, error) {
	var out []sdk.ChatCompletionToolUnionParam
	for _, t := range tools {
		params, err := parameters(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("%w: tool %q input schema: %w", ErrBadRequest, t.Name, err)
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: params}
		if t.Description != "" {
			fn.Description = sdk.String(t.Description)
		}
		out = append(out, sdk.ChatCompletionFunctionTool(fn))
	}
	return out, nil
}

// parameters is the tool's input schema as function parameters: an
// object schema, as turn.ToolSchema makes it. Tools written by hand or
// served over MCP often leave the type out or take one of several sets
// of arguments.
func parameters(raw json.RawMessage) (shared.FunctionParameters, error) {
	return turn.ToolSchema(raw)
}
