package anthropic

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
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

var helloChunks = []turn.Chunk{text("Hello"), text(", world"), text("."), usage(10, 5, 0), stop(contract.StopEndTurn)}

func TestStreamTranscripts(t *testing.T) {
	const w = "get_weather"
	tests := []struct {
		name string
		want []turn.Chunk
		// fail is the failure kind the stream ends with, if any.
		fail contract.FailureKind
	}{
		{name: "text", want: helloChunks},
		{name: "tools", want: []turn.Chunk{
			start(0, "call_1", w), args(0, `{"city": "Pa`), args(0, `ris"}`), end(0), usage(380, 54, 0), stop(contract.StopToolUse),
		}},
		{name: "parallel_tools", want: []turn.Chunk{
			start(0, "call_1", w), args(0, `{"city": `), args(0, `"Paris"}`), end(0),
			start(1, "call_2", w), args(1, `{"city":`), args(1, ` "Tokyo"}`), end(1),
			usage(390, 98, 0), stop(contract.StopToolUse),
		}},
		{name: "mixed_blocks", want: []turn.Chunk{
			{Kind: turn.ChunkThinking, Text: "Two lookups."}, {Kind: turn.ChunkThinking, Signature: "sig-2"},
			text("Checking."),
			start(0, "toolu_a", w), args(0, `{"city":"Oslo"}`), end(0),
			start(1, "toolu_b", "get_time"), args(1, `{}`), end(1),
			usage(410, 77, 0), stop(contract.StopToolUse),
		}},
		{name: "thinking", want: []turn.Chunk{
			{Kind: turn.ChunkThinking, Text: "Let me "}, {Kind: turn.ChunkThinking, Text: "think."},
			{Kind: turn.ChunkThinking, Signature: "sig-1"}, text("Done."), usage(36, 12, 0), stop(contract.StopEndTurn),
		}},
		{name: "usage", want: []turn.Chunk{text("Hi."), usage(100, 20, 30), stop(contract.StopEndTurn)}},
		{name: "malformed_arguments", want: []turn.Chunk{
			start(0, "call_1", w), args(0, `{"city": `), args(0, `"Paris"`), end(0), usage(380, 30, 0), stop(contract.StopToolUse),
		}},
		{name: "error_frame", want: []turn.Chunk{text("Hel")}, fail: contract.FailServer},
		{name: "cut_mid_tool_call", want: []turn.Chunk{start(0, "call_1", w), args(0, `{"city": "Pa`)}, fail: contract.FailStream},
		{name: "server_error_then_ok", fail: contract.FailServer},
		{name: "rate_limited", fail: contract.FailRateLimited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveTranscript(t, filepath.Join("testdata", tt.name+".sse"))
			p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
			got, err := collect(context.Background(), p, basicRequest())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks mismatch (-want +got):\n%s", diff)
			}
			if tt.fail == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if pe := failureOf(t, err); pe.Failure != tt.fail {
				t.Errorf("failure = %s, want %s (%v)", pe.Failure, tt.fail, err)
			}
		})
	}
}

// TestRetryThenOK plays the two-response transcripts as the driver would:
// the first attempt fails with the server's status, the second succeeds.
func TestRetryThenOK(t *testing.T) {
	tests := []struct {
		name   string
		fail   contract.FailureKind
		status int
	}{
		{"rate_limited", contract.FailRateLimited, 429},
		{"server_error_then_ok", contract.FailServer, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveTranscript(t, filepath.Join("testdata", tt.name+".sse"))
			p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
			_, err := collect(context.Background(), p, basicRequest())
			pe := failureOf(t, err)
			if pe.Failure != tt.fail || pe.Status != tt.status || pe.RetryAfter != 0 || !pe.Retryable() {
				t.Errorf("first attempt: got %s status %d retry after %s, want %s status %d", pe.Failure, pe.Status, pe.RetryAfter, tt.fail, tt.status)
			}
			got, err := collect(context.Background(), p, basicRequest())
			if err != nil {
				t.Fatalf("second attempt: %v", err)
			}
			if diff := cmp.Diff(helloChunks, got); diff != "" {
				t.Errorf("second attempt mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
