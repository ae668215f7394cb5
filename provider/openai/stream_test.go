package openai

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/transcripttest"
)

func text(s string) turn.Chunk { return turn.Chunk{Kind: turn.ChunkText, Text: s} }
func start(i int, id string) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: "get_weather"}
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

// b1 names the reply of most transcripts, as their frames do.
var b1 = said("gpt-4o-mini-2024-07-18", "chatcmpl-B1")

var helloChunks = []turn.Chunk{b1, text("Hello"), text(","), text(" world"), text("."), usage(10, 5, 0), stop(contract.StopEndTurn)}

func TestStreamTranscripts(t *testing.T) {
	suite.Transcripts(t, []transcripttest.Transcript{
		{Name: "text", Want: helloChunks},
		// Cut after finish_reason, before the usage chunk: the reply is
		// whole, and its usage is missing, not made up.
		{Name: "cut_after_stop", Want: []turn.Chunk{b1, text("Hello"), text(","), text(" world"), text("."), stop(contract.StopEndTurn)}},
		{Name: "tools", Want: []turn.Chunk{
			b1, start(0, "call_1"), args(0, `{"`), args(0, "city"), args(0, `":"`), args(0, "Paris"), args(0, `"}`),
			end(0), usage(82, 17, 0), stop(contract.StopToolUse),
		}},
		{Name: "parallel_tools", Want: []turn.Chunk{
			b1, start(0, "call_1"), args(0, `{"city": `), args(0, `"Paris"}`),
			start(1, "call_2"), args(1, `{"city": `), args(1, `"Tokyo"}`),
			end(0), end(1), usage(90, 40, 0), stop(contract.StopToolUse),
		}},
		{Name: "usage", Want: []turn.Chunk{b1, text("Hi."), usage(100, 20, 30), stop(contract.StopEndTurn)}},
		{Name: "thinking", Want: []turn.Chunk{
			b1, {Kind: turn.ChunkThinking, Text: "Let me think."}, text("Done."), usage(12, 9, 0), stop(contract.StopEndTurn),
		}},
		// A model that refuses (structured outputs make it say so apart)
		// streams the refusal beside content, which stays empty.
		{Name: "refusal", Want: []turn.Chunk{
			said("gpt-4o-2024-08-06", "chatcmpl-R1"), text("I'm sorry,"), text(" I can't help with that."), usage(40, 9, 0), stop(contract.StopRefusal),
		}},
		{Name: "malformed_arguments", Want: []turn.Chunk{
			b1, start(0, "call_1"), args(0, `{"city": `), args(0, `"Paris"`), end(0), usage(82, 12, 0), stop(contract.StopToolUse),
		}},
		{Name: "error_frame", Want: []turn.Chunk{b1, text("Hel")}, Fail: contract.FailServer},
		{Name: "cut_mid_tool_call", Want: []turn.Chunk{
			b1, start(0, "call_1"), args(0, `{"`), args(0, "city"), args(0, `":"Pa`),
		}, Fail: contract.FailStream},
		{Name: "server_error_then_ok", Fail: contract.FailServer},
		{Name: "rate_limited", Fail: contract.FailRateLimited},
	})
}

// TestRetryThenOK plays the two-response transcripts as the driver would:
// the first attempt fails with the server's status, the second succeeds.
func TestRetryThenOK(t *testing.T) { suite.RetryThenOK(t, helloChunks) }
