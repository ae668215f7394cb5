package openai

import (
	"context"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Complete answers req with one chat completion, not streamed: the turn
// driver falls back to it when a stream fails before its first chunk,
// which some OpenAI-compatible servers do for streaming alone. The
// history is sanitized, as Stream's is.
func (p *Provider) Complete(ctx context.Context, req contract.ModelRequest) ([]turn.Chunk, error) {
	req.History = turn.Sanitize(req.History)
	params, err := buildParams(req, p.send)
	if err != nil {
		return nil, failures.BadRequest(err)
	}
	// stream_options is refused on a request that does not stream.
	params.StreamOptions = sdk.ChatCompletionStreamOptionsParam{}
	var resp *http.Response
	c, err := p.chat.New(ctx, params, option.WithResponseInto(&resp))
	if err != nil {
		if pe := failures.WebPage(resp); pe != nil {
			return nil, pe
		}
		return nil, failures.Classify(ctx, resp, err)
	}
	if len(c.Choices) == 0 {
		return nil, &turn.ProviderError{Failure: contract.FailStream, Message: "openai: completion without a choice"}
	}
	return completionChunks(c), nil
}

// completionChunks is a whole completion as the chunks its stream would
// have held.
func completionChunks(c *sdk.ChatCompletion) []turn.Chunk {
	choice := c.Choices[0]
	d := &decoder{reason: choice.FinishReason, refused: choice.Message.Refusal != ""}
	var out []turn.Chunk
	if c.Model != "" || c.ID != "" {
		out = append(out, turn.Chunk{Kind: turn.ChunkResponse, Name: c.Model, Text: c.ID})
	}
	if r := reasoning(choice.Message.JSON.ExtraFields); r != "" {
		out = append(out, turn.Chunk{Kind: turn.ChunkThinking, Text: r})
	}
	if choice.Message.Content != "" {
		out = append(out, turn.Chunk{Kind: turn.ChunkText, Text: choice.Message.Content})
	}
	if d.refused {
		out = append(out, turn.Chunk{Kind: turn.ChunkText, Text: choice.Message.Refusal})
	}
	for i, tc := range choice.Message.ToolCalls {
		d.order++
		id := tc.ID
		if id == "" {
			id = d.missingID(i)
		}
		out = append(out,
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: tc.Function.Name},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: tc.Function.Arguments},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
	}
	if c.JSON.Usage.Valid() {
		out = append(out, turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{
			InputTokens:     c.Usage.PromptTokens,
			OutputTokens:    c.Usage.CompletionTokens,
			CachedTokens:    c.Usage.PromptTokensDetails.CachedTokens,
			ReasoningTokens: c.Usage.CompletionTokensDetails.ReasoningTokens,
		}})
	}
	return append(out, turn.Chunk{Kind: turn.ChunkStop, Stop: d.stopReason()})
}
