package anthropic

import (
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/relay"
)

// decoder turns Messages stream events into turn.Chunks. Content blocks
// are indexed across text, thinking, redacted thinking and tool use; tool calls are renumbered
// 0, 1, ... in order so the driver sees the same indices from every
// provider. Usage and the stop are held back until the stream ends. The
// model and id message_start names go first, in a turn.ChunkResponse
// (see relay.Response).
type decoder struct {
	said    relay.Response // the model and id, for the first chunk
	calls   map[int64]*call
	order   int
	usage   contract.Usage
	stop    contract.StopReason
	stopped bool
}

type call struct {
	index   int
	hasArgs bool
}

func (d *decoder) Decode(e sdk.MessageStreamEventUnion) []turn.Chunk {
	switch e.Type {
	case "message_start":
		d.said.Note(string(e.Message.Model), e.Message.ID)
		d.addUsage(e.Message.Usage.InputTokens, e.Message.Usage.CacheReadInputTokens, e.Message.Usage.CacheCreationInputTokens, e.Message.Usage.OutputTokens)
	case "content_block_start":
		return d.said.Before(d.blockStart(e.Index, e.ContentBlock))
	case "content_block_delta":
		return d.said.Before(d.blockDelta(e.Index, e.Delta))
	case "content_block_stop":
		return d.said.Before(d.blockStop(e.Index))
	case "message_delta":
		d.stop = stopReason(e.Delta.StopReason)
		u := e.Usage
		d.addUsage(u.InputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, u.OutputTokens)
	case "message_stop":
		d.stopped = true
	}
	return nil
}

// addUsage keeps the newest non-zero counts: message_delta repeats or
// completes what message_start said, and its output count is cumulative.
// Input counts every prompt token, cache reads and writes included.
func (d *decoder) addUsage(input, cacheRead, cacheWrite, output int64) {
	if total := input + cacheRead + cacheWrite; total > 0 {
		d.usage.InputTokens = total
		d.usage.CachedTokens = cacheRead
	}
	if output > 0 {
		d.usage.OutputTokens = output
	}
}

func (d *decoder) blockStart(index int64, b sdk.ContentBlockStartEventContentBlockUnion) []turn.Chunk {
	switch b.Type {
	case "text":
		if b.Text != "" {
			return []turn.Chunk{{Kind: turn.ChunkText, Text: b.Text}}
		}
	case "thinking":
		if b.Thinking != "" || b.Signature != "" {
			return []turn.Chunk{{Kind: turn.ChunkThinking, Text: b.Thinking, Signature: b.Signature}}
		}
	case "redacted_thinking":
		// The whole block arrives here: it streams no deltas.
		if b.Data != "" {
			return []turn.Chunk{{Kind: turn.ChunkRedactedThinking, Signature: b.Data}}
		}
	case "tool_use":
		if c, ok := d.calls[index]; ok {
			// The block was started before: the stream broke the
			// protocol, and the driver refuses a call started twice
			// rather than run it twice under one id.
			return []turn.Chunk{{Kind: turn.ChunkToolCallStart, Index: c.index, CallID: b.ID, Name: b.Name}}
		}
		if d.calls == nil {
			d.calls = map[int64]*call{}
		}
		c := &call{index: d.order}
		d.calls[index] = c
		d.order++
		out := []turn.Chunk{{Kind: turn.ChunkToolCallStart, Index: c.index, CallID: b.ID, Name: b.Name}}
		// The API streams the input in deltas after an empty one; a
		// server that sends it whole here sends none after it.
		if in := strings.TrimSpace(b.JSON.Input.Raw()); in != "" && in != "{}" && in != "null" {
			c.hasArgs = true
			out = append(out, turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: c.index, Text: in})
		}
		return out
	}
	return nil
}

func (d *decoder) blockDelta(index int64, delta sdk.MessageStreamEventUnionDelta) []turn.Chunk {
	switch delta.Type {
	case "text_delta":
		return []turn.Chunk{{Kind: turn.ChunkText, Text: delta.Text}}
	case "thinking_delta":
		return []turn.Chunk{{Kind: turn.ChunkThinking, Text: delta.Thinking}}
	case "signature_delta":
		return []turn.Chunk{{Kind: turn.ChunkThinking, Signature: delta.Signature}}
	case "input_json_delta":
		c, ok := d.calls[index]
		if !ok || delta.PartialJSON == "" {
			return nil
		}
		c.hasArgs = true
		return []turn.Chunk{{Kind: turn.ChunkToolCallArgs, Index: c.index, Text: delta.PartialJSON}}
	}
	return nil
}

func (d *decoder) blockStop(index int64) []turn.Chunk {
	c, ok := d.calls[index]
	if !ok {
		return nil
	}
	var out []turn.Chunk
	if !c.hasArgs {
		// A tool without parameters streams no input at all.
		out = append(out, turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: c.index, Text: "{}"})
	}
	return append(out, turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: c.index})
}

// End returns the held-back usage and stop once the reply is whole, or a
// stream failure when the stream ended before that. message_delta's stop
// reason makes it whole: it follows the last block and carries the final
// usage, and message_stop after it only closes the stream, so a stream
// that breaks between the two is not asked for (and billed) again.
func (d *decoder) End() ([]turn.Chunk, error) {
	if !d.stopped && d.stop == "" {
		return nil, &turn.ProviderError{Failure: contract.FailStream, Message: "anthropic: stream ended before message_stop"}
	}
	stop := d.stop
	if stop == "" {
		stop = contract.StopEndTurn
	}
	return d.said.Before([]turn.Chunk{{Kind: turn.ChunkUsage, Usage: d.usage}, {Kind: turn.ChunkStop, Stop: stop}}), nil
}

func stopReason(r sdk.StopReason) contract.StopReason {
	switch r {
	case sdk.StopReasonToolUse:
		return contract.StopToolUse
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return contract.StopMaxTokens
	case sdk.StopReasonRefusal:
		return contract.StopRefusal
	case "":
		return ""
	}
	return contract.StopEndTurn
}
