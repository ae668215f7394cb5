package turn_test

import (
	"context"
	"errors"
	"iter"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func call(id, name, args string) contract.Block {
	return contract.CallBlock(contract.ToolCall{ID: id, Name: name, Arguments: args})
}

func assistant(blocks ...contract.Block) contract.Turn {
	return contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}
}

func TestDriverAssemblesReplies(t *testing.T) {
	tests := []struct {
		name   string
		chunks []turn.Chunk
		want   contract.ModelReplied
	}{{
		name:   "text",
		chunks: []turn.Chunk{text("Hello, "), text("world."), {Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 10, OutputTokens: 5}}, stop(contract.StopEndTurn)},
		want:   contract.ModelReplied{Reply: assistant(contract.TextBlock("Hello, world.")), Usage: contract.Usage{InputTokens: 10, OutputTokens: 5}, Stop: contract.StopEndTurn, At: 42},
	}, {
		name: "thinking then text keeps order and signature",
		chunks: []turn.Chunk{
			{Kind: turn.ChunkThinking, Text: "Let me "}, {Kind: turn.ChunkThinking, Text: "think."}, {Kind: turn.ChunkThinking, Signature: "sig-1"},
			text("Done."), stop(contract.StopEndTurn),
		},
		want: contract.ModelReplied{Reply: assistant(
			contract.Block{Kind: contract.BlockThinking, Text: "Let me think.", Signature: "sig-1"},
			contract.TextBlock("Done."),
		), Stop: contract.StopEndTurn, At: 42},
	}, {
		name: "redacted thinking stays a block of its own, in order",
		chunks: []turn.Chunk{
			{Kind: turn.ChunkThinking, Text: "Plan."}, {Kind: turn.ChunkThinking, Signature: "sig-1"},
			{Kind: turn.ChunkRedactedThinking, Signature: "EnC0"}, {Kind: turn.ChunkRedactedThinking, Signature: "EnC1"},
			{Kind: turn.ChunkRedactedThinking}, {Kind: turn.ChunkThinking, Text: "More."},
			callStart(0, "call_1", "get_weather"), callArgs(0, `{"city":"Oslo"}`), callEnd(0), stop(contract.StopToolUse),
		},
		want: contract.ModelReplied{Reply: assistant(
			contract.Block{Kind: contract.BlockThinking, Text: "Plan.", Signature: "sig-1"},
			contract.Block{Kind: contract.BlockRedactedThinking, Signature: "EnC0"},
			contract.Block{Kind: contract.BlockRedactedThinking, Signature: "EnC1"},
			contract.Block{Kind: contract.BlockThinking, Text: "More."},
			call("call_1", "get_weather", `{"city":"Oslo"}`),
		), Stop: contract.StopToolUse, At: 42},
	}, {
		name: "parallel calls with repaired and normalised pieces",
		chunks: []turn.Chunk{
			text("Checking."),
			callStart(0, "call_1", "functions.get_weather"), callArgs(0, `{"city": `), callArgs(0, `"Paris"`), callEnd(0),
			callStart(1, "call_2", "Search"), callArgs(1, `{'q': 'x',}`), callEnd(1),
			stop(contract.StopToolUse),
		},
		want: contract.ModelReplied{Reply: assistant(
			contract.TextBlock("Checking."),
			call("call_1", "get_weather", `{"city":"Paris"}`),
			call("call_2", "search", `{"q":"x"}`),
		), Stop: contract.StopToolUse, At: 42},
	}, {
		name: "interleaved argument fragments by index",
		chunks: []turn.Chunk{
			callStart(0, "a", "search"), callStart(1, "b", "search"),
			callArgs(1, `{"q":"2"}`), callArgs(0, `{"q":"1"}`), stop("weird"),
		},
		want: contract.ModelReplied{Reply: assistant(call("a", "search", `{"q":"1"}`), call("b", "search", `{"q":"2"}`)), Stop: contract.StopToolUse, At: 42},
	}, {
		name:   "hopeless arguments stay as the model wrote them",
		chunks: []turn.Chunk{callStart(0, "c", "search"), callArgs(0, `not json at all`), stop(contract.StopToolUse)},
		want:   contract.ModelReplied{Reply: assistant(call("c", "search", `not json at all`)), Stop: contract.StopToolUse, At: 42},
	}, {
		name:   "empty arguments become an empty object",
		chunks: []turn.Chunk{callStart(0, "c", "search"), stop(contract.StopToolUse)},
		want:   contract.ModelReplied{Reply: assistant(call("c", "search", `{}`)), Stop: contract.StopToolUse, At: 42},
	}, {
		name: "arguments cut by the token limit are not mended into a shorter call",
		chunks: []turn.Chunk{
			callStart(0, "a", "search"), callArgs(0, `{"q": "1",}`),
			callStart(1, "b", "search"), callArgs(1, `{"q": "rm -rf /tmp/bu`), stop(contract.StopMaxTokens),
		},
		want: contract.ModelReplied{Reply: assistant(call("a", "search", `{"q":"1"}`), call("b", "search", `{"q": "rm -rf /tmp/bu`)), Stop: contract.StopMaxTokens, At: 42},
	}, {
		name:   "unknown stop without calls is end_turn",
		chunks: []turn.Chunk{text("x"), stop("")},
		want:   contract.ModelReplied{Reply: assistant(contract.TextBlock("x")), Stop: contract.StopEndTurn, At: 42},
	}, {
		name: "usage merges across chunks and after the stop",
		chunks: []turn.Chunk{
			{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 100, CachedTokens: 30}}, text("Hi."), stop(contract.StopMaxTokens),
			{Kind: turn.ChunkUsage, Usage: contract.Usage{OutputTokens: 20}},
		},
		want: contract.ModelReplied{Reply: assistant(contract.TextBlock("Hi.")), Usage: contract.Usage{InputTokens: 100, OutputTokens: 20, CachedTokens: 30}, Stop: contract.StopMaxTokens, At: 42},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			got := turn.NewDriver(newFake(play{chunks: tt.chunks}), testOptions(r)).Run(context.Background(), weatherReq, r.publish)
			if diff := cmp.Diff(contract.Signal(tt.want), got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDriverPublishesDeltas also checks that redacted thinking, having no
// text, publishes nothing.
func TestDriverPublishesDeltas(t *testing.T) {
	r := &recorder{}
	chunks := []turn.Chunk{
		{Kind: turn.ChunkThinking, Text: "hm"}, {Kind: turn.ChunkRedactedThinking, Signature: "EnC0"}, text("a"), text("b"),
		callStart(0, "call_1", "functions.GET_WEATHER"), callArgs(0, `{"city":"Paris"}`), callEnd(0), stop(contract.StopToolUse),
	}
	turn.NewDriver(newFake(play{chunks: chunks}), testOptions(r)).Run(context.Background(), weatherReq, r.publish)
	c := &contract.ToolCall{ID: "call_1", Name: "get_weather"}
	want := []contract.RunEvent{
		{Kind: contract.EvThinkingDelta, Text: "hm", At: 42},
		{Kind: contract.EvTextDelta, Text: "a", At: 42},
		{Kind: contract.EvTextDelta, Text: "b", At: 42},
		{Kind: contract.EvToolCallDelta, Call: c, At: 42},
		{Kind: contract.EvToolCallDelta, Call: c, Text: `{"city":"Paris"}`, At: 42},
	}
	if diff := cmp.Diff(want, r.events); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestDriverSanitizesHistoryBeforeStreaming(t *testing.T) {
	f := newFake(play{chunks: []turn.Chunk{text("ok"), stop(contract.StopEndTurn)}})
	req := weatherReq
	req.History = req.History.Append(assistant(call("x", "search", "{}")))
	turn.NewDriver(f, testOptions(&recorder{})).Run(context.Background(), req, nil)
	if diff := cmp.Diff(turn.Sanitize(req.History).Turns(), f.reqs[0].History.Turns()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if f.reqs[0].History.Len() != 3 {
		t.Errorf("history sent has %d turns, want 3 (placeholder result added)", f.reqs[0].History.Len())
	}
}

func TestDriverRejectsMalformedStreams(t *testing.T) {
	for name, chunks := range map[string][]turn.Chunk{
		"args before start": {callArgs(3, "{}"), stop(contract.StopToolUse)},
		"end before start":  {callEnd(0), stop(contract.StopToolUse)},
		"started twice":     {callStart(0, "a", "x"), callStart(0, "b", "x")},
		"unknown kind":      {{Kind: "mystery"}},
	} {
		t.Run(name, func(t *testing.T) {
			r := &recorder{}
			opts := testOptions(r)
			opts.MaxRetries = turn.NoRetries
			got := turn.NewDriver(newFake(play{chunks: chunks}), opts).Run(context.Background(), weatherReq, nil)
			f, ok := got.(contract.ModelFailed)
			if !ok || f.Failure != contract.FailStream {
				t.Fatalf("got %#v, want ModelFailed stream", got)
			}
		})
	}
}

func TestDriverNilProvider(t *testing.T) {
	got := turn.NewDriver(nil, turn.Options{}).Run(context.Background(), weatherReq, nil)
	if f, ok := got.(contract.ModelFailed); !ok || f.Failure != contract.FailInvalidRequest {
		t.Fatalf("got %#v, want ModelFailed invalid_request", got)
	}
}

func TestDriverCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := newFake(play{chunks: []turn.Chunk{text("x")}, hang: true})
	r := &recorder{}
	p := func(ev *contract.RunEvent) { r.publish(ev); cancel() }
	got := turn.NewDriver(f, testOptions(r)).Run(ctx, weatherReq, p)
	want := contract.ModelFailed{Failure: contract.FailOther, Message: "cancelled", At: 42}
	if diff := cmp.Diff(contract.Signal(want), got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if f.calls() != 1 {
		t.Errorf("provider called %d times after cancel, want 1", f.calls())
	}
}

var errBoom = errors.New("boom")

// With Estimate set the reply's turn carries its count; without, none.
func TestEstimateIsStampedOnTheReply(t *testing.T) {
	count := func(tn contract.Turn) int { return 100 + len(tn.Text()) }
	for _, tt := range []struct {
		name     string
		estimate func(contract.Turn) int
		want     int
	}{{"none", nil, 0}, {"counted", count, 105}} {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOptions(&recorder{})
			opts.Estimate = tt.estimate
			sig := turn.NewDriver(newFake(play{chunks: []turn.Chunk{text("hello"), stop(contract.StopEndTurn)}}), opts).Run(context.Background(), weatherReq, nil)
			reply, ok := sig.(contract.ModelReplied)
			if !ok {
				t.Fatalf("got %#v, want a reply", sig)
			}
			if reply.Reply.Tokens != tt.want {
				t.Errorf("reply tokens %d, want %d", reply.Reply.Tokens, tt.want)
			}
		})
	}
}

// keptYield is a provider that keeps the yield it was handed and streams
// one reply.
type keptYield struct{ yield func(turn.Chunk, error) bool }

func (p *keptYield) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		p.yield = yield
		if yield(text("first"), nil) {
			yield(stop(contract.StopEndTurn), nil)
		}
	}
}

// A provider that calls yield after its stream returned is not listened
// to: the call it belonged to is over, and the next call's reply and
// events are its own.
func TestDriverIgnoresYieldAfterTheStream(t *testing.T) {
	p := &keptYield{}
	d := turn.NewDriver(p, turn.Options{})
	if _, ok := d.Run(context.Background(), weatherReq, nil).(contract.ModelReplied); !ok {
		t.Fatal("the first call did not reply")
	}
	late := p.yield
	r := &recorder{}
	second := func(ev *contract.RunEvent) {
		if late(text("late"), nil) {
			t.Error("a yield of an ended stream was listened to")
		}
		r.publish(ev)
	}
	got := d.Run(context.Background(), weatherReq, second)
	reply, ok := got.(contract.ModelReplied)
	if !ok {
		t.Fatalf("the second call = %#v, want a reply", got)
	}
	if diff := cmp.Diff([]contract.Block{contract.TextBlock("first")}, reply.Reply.Blocks); diff != "" {
		t.Errorf("second reply (-want +got):\n%s", diff)
	}
	if len(r.events) != 1 || r.events[0].Text != "first" {
		t.Errorf("second call's events = %+v, want its one delta", r.events)
	}
}
