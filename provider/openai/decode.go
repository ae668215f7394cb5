package openai

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/respjson"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/relay"
)

// decoder turns chat.completion.chunk frames into turn.Chunks. Tool-call
// deltas are keyed by their index; each index becomes one call numbered
// in order of first appearance, and a new call id at an index in use
// starts a new call (some compatible servers put every parallel call at
// index 0). A call's start is held back until its name is whole, as
// some compatible servers send the name in pieces: until its arguments
// begin, anything else streams, or the reply finishes. Usage and the
// stop are held back until the stream ends, because usage arrives after
// finish_reason. A refusal arrives in its own field, content left empty,
// under finish_reason "stop": it is passed on as text so the caller
// reads why, and it makes the stop a refusal. The model and id the
// frames name go first, in a turn.ChunkResponse (see relay.Response).
type decoder struct {
	said    relay.Response // the model and id, for the first chunk
	calls   map[int64]int
	ids     map[int64]string
	order   int
	reason  string
	refused bool
	usage   *contract.Usage
	// held is the start of the newest call while its name may still
	// grow; holding says whether there is one.
	held    turn.Chunk
	holding bool
	// streamed says whether the reply streamed anything, and done
	// whether the server ended it with [DONE] (see doneEvents): a reply
	// with both is whole even without a finish_reason.
	streamed, done bool
	// prefix is the random part of the ids given to calls that came
	// without one (see missingID).
	prefix string
}

// missingID is the id of the reply's call i that came without one: a
// random part made once a reply, so that no other call of the session
// has it, this reply's other attempts included, and the call's number.
func (d *decoder) missingID(i int) string {
	if d.prefix == "" {
		d.prefix = strconv.FormatUint(rand.Uint64()&(1<<48-1), 36)
	}
	return "call_" + d.prefix + "_" + strconv.Itoa(i+1)
}

func (d *decoder) Decode(c sdk.ChatCompletionChunk) []turn.Chunk {
	if c.Object == doneObject {
		d.done = true
		return nil
	}
	d.said.Note(c.Model, c.ID)
	if c.JSON.Usage.Valid() {
		d.usage = &contract.Usage{
			InputTokens:     c.Usage.PromptTokens,
			OutputTokens:    c.Usage.CompletionTokens,
			CachedTokens:    c.Usage.PromptTokensDetails.CachedTokens,
			ReasoningTokens: c.Usage.CompletionTokensDetails.ReasoningTokens,
		}
	}
	var out []turn.Chunk
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue
		}
		out = d.delta(out, ch.Delta)
		if ch.FinishReason != "" && d.reason == "" {
			out = d.finish(out, ch.FinishReason)
		}
	}
	return d.said.Before(out)
}

// finish ends every call the reply started.
func (d *decoder) finish(out []turn.Chunk, reason string) []turn.Chunk {
	d.reason = reason
	out = d.release(out)
	for i := range d.order {
		out = append(out, turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
	}
	return out
}

// release passes on the held start of a call, its name now whole.
func (d *decoder) release(out []turn.Chunk) []turn.Chunk {
	if !d.holding {
		return out
	}
	d.holding = false
	return append(out, d.held)
}

func (d *decoder) delta(out []turn.Chunk, delta sdk.ChatCompletionChunkChoiceDelta) []turn.Chunk {
	r := reasoning(delta.JSON.ExtraFields)
	if r != "" || delta.Content != "" || delta.Refusal != "" {
		out = d.release(out)
		d.streamed = true
	}
	if r != "" {
		out = append(out, turn.Chunk{Kind: turn.ChunkThinking, Text: r})
	}
	if delta.Content != "" {
		out = append(out, turn.Chunk{Kind: turn.ChunkText, Text: delta.Content})
	}
	if delta.Refusal != "" {
		d.refused = true
		out = append(out, turn.Chunk{Kind: turn.ChunkText, Text: delta.Refusal})
	}
	for _, tc := range delta.ToolCalls {
		i, ok := d.calls[tc.Index]
		if ok && tc.ID != "" && d.ids[tc.Index] != "" && tc.ID != d.ids[tc.Index] {
			ok = false
		}
		if !ok {
			if d.calls == nil {
				d.calls, d.ids = map[int64]int{}, map[int64]string{}
			}
			i = d.order
			d.calls[tc.Index], d.ids[tc.Index] = i, tc.ID
			d.order++
			id := tc.ID
			if id == "" {
				// Some compatible servers omit ids; the driver still
				// needs one to pair the result with the call, and clients
				// one that no other call of the session has, this reply's
				// other attempts included.
				id = d.missingID(i)
			}
			out = d.release(out)
			d.held, d.holding, d.streamed = turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: tc.Function.Name}, true, true
		} else if d.holding && d.held.Index == i {
			d.held.Name = joinName(d.held.Name, tc.Function.Name)
		}
		if tc.Function.Arguments != "" {
			out = append(d.release(out), turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: tc.Function.Arguments})
		}
	}
	return out
}

// reasoning reads the reasoning text that OpenAI-compatible servers
// (DeepSeek, vLLM, Ollama, OpenRouter) add beside content, in a stream's
// delta or a whole completion's message, from its fields the SDK has no
// type for.
func reasoning(extra map[string]respjson.Field) string {
	for _, key := range []string{"reasoning_content", "reasoning"} {
		// The SDK marks fields it has no type for as invalid, so read
		// the raw text rather than asking Valid.
		var s string
		if json.Unmarshal([]byte(extra[key].Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// End returns the held-back usage and stop once the stream ended
// cleanly, or a stream failure when it ended before a finish_reason.
// Some compatible servers never send a finish_reason: a reply they
// streamed and ended with [DONE] is whole, its stop tool use if it
// called tools and the end of the turn otherwise.
func (d *decoder) End() ([]turn.Chunk, error) {
	var out []turn.Chunk
	if d.reason == "" {
		if !d.done || !d.streamed {
			return nil, &turn.ProviderError{Failure: contract.FailStream, Message: "openai: stream ended before finish_reason"}
		}
		out = d.finish(out, "stop")
	}
	if d.usage != nil {
		out = append(out, turn.Chunk{Kind: turn.ChunkUsage, Usage: *d.usage})
	}
	return d.said.Before(append(out, turn.Chunk{Kind: turn.ChunkStop, Stop: d.stopReason()})), nil
}

func (d *decoder) stopReason() contract.StopReason {
	switch d.reason {
	case "tool_calls", "function_call":
		return contract.StopToolUse
	case "length":
		return contract.StopMaxTokens
	case "content_filter":
		return contract.StopRefusal
	}
	if d.refused {
		return contract.StopRefusal
	}
	// Some compatible servers say "stop" after tool calls.
	if d.order > 0 {
		return contract.StopToolUse
	}
	return contract.StopEndTurn
}

// joinName adds a piece of a call's function name to what came before.
// A piece that starts with the whole name so far is a server sending the
// name again with each delta, whole or as it grows, not a next piece.
func joinName(name, piece string) string {
	if name != "" && strings.HasPrefix(piece, name) {
		return piece
	}
	return name + piece
}
