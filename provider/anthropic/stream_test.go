package anthropic

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/transcripttest"
)

func text(s string) turn.Chunk { return turn.Chunk{Kind: turn.ChunkText, Text: s} }
func start(i int, id, name string) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: name}
}
func args(i int, s string) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: s}
}
func end(i int) turn.Chunk { return turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i} }
func usage(in, out, cached int64) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: in, OutputTokens: out, CachedTokens: cached}}
}
func stop(r contract.StopReason) turn.Chunk { return turn.Chunk{Kind: turn.ChunkStop, Stop: r} }
func said(model, id string) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkResponse, Name: model, Text: id}
}

// msg names the reply of most transcripts, as their message_start does.
var msg = said("claude-sonnet-4-5-20250929", "msg_01XFDUDYJgAACzvnptvVoYEL")

var helloChunks = []turn.Chunk{msg, text("Hello"), text(", world"), text("."), usage(10, 5, 0), stop(contract.StopEndTurn)}

func TestStreamTranscripts(t *testing.T) {
	const w = "get_weather"
	suite.Transcripts(t, []transcripttest.Transcript{
		{Name: "text", Want: helloChunks},
		// Cut after message_delta, before message_stop: the reply and
		// its usage are whole.
		{Name: "cut_after_stop", Want: helloChunks},
		{Name: "tools", Want: []turn.Chunk{
			msg, start(0, "call_1", w), args(0, `{"city": "Pa`), args(0, `ris"}`), end(0), usage(380, 54, 0), stop(contract.StopToolUse),
		}},
		{Name: "parallel_tools", Want: []turn.Chunk{
			msg, start(0, "call_1", w), args(0, `{"city": `), args(0, `"Paris"}`), end(0),
			start(1, "call_2", w), args(1, `{"city":`), args(1, ` "Tokyo"}`), end(1),
			usage(390, 98, 0), stop(contract.StopToolUse),
		}},
		{Name: "mixed_blocks", Want: []turn.Chunk{
			msg, {Kind: turn.ChunkThinking, Text: "Two lookups."}, {Kind: turn.ChunkThinking, Signature: "sig-2"},
			text("Checking."),
			start(0, "toolu_a", w), args(0, `{"city":"Oslo"}`), end(0),
			start(1, "toolu_b", "get_time"), args(1, `{}`), end(1),
			usage(410, 77, 0), stop(contract.StopToolUse),
		}},
		{Name: "thinking", Want: []turn.Chunk{
			msg, {Kind: turn.ChunkThinking, Text: "Let me "}, {Kind: turn.ChunkThinking, Text: "think."},
			{Kind: turn.ChunkThinking, Signature: "sig-1"}, text("Done."), usage(36, 12, 0), stop(contract.StopEndTurn),
		}},
		{Name: "redacted_thinking", Want: []turn.Chunk{
			said("claude-sonnet-4-5-20250929", "msg_01RedactedThinking0001"), {Kind: turn.ChunkRedactedThinking, Signature: redactedData},
			start(0, "toolu_01Redacted", w), args(0, `{"city": "Paris"}`), end(0), usage(402, 88, 0), stop(contract.StopToolUse),
		}},
		{Name: "usage", Want: []turn.Chunk{msg, text("Hi."), usage(100, 20, 30), stop(contract.StopEndTurn)}},
		{Name: "malformed_arguments", Want: []turn.Chunk{
			msg, start(0, "call_1", w), args(0, `{"city": `), args(0, `"Paris"`), end(0), usage(380, 30, 0), stop(contract.StopToolUse),
		}},
		{Name: "error_frame", Want: []turn.Chunk{msg, text("Hel")}, Fail: contract.FailServer},
		{Name: "cut_mid_tool_call", Want: []turn.Chunk{msg, start(0, "call_1", w), args(0, `{"city": "Pa`)}, Fail: contract.FailStream},
		{Name: "server_error_then_ok", Fail: contract.FailServer},
		{Name: "rate_limited", Fail: contract.FailRateLimited},
	})
}

// TestRetryThenOK plays the two-response transcripts as the driver would:
// the first attempt fails with the server's status, the second succeeds.
func TestRetryThenOK(t *testing.T) { suite.RetryThenOK(t, helloChunks) }
