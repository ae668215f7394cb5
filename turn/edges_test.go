package turn_test

import (
	"context"
	"encoding/json"
	"iter"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// A repair (here only of a trailing comma) keeps a character written as
// a JSON surrogate pair: the well-formed call would have meant 😀.
func TestRepairKeepsSurrogatePairs(t *testing.T) {
	got, ok := turn.RepairArguments(`{"text": "hi \ud83d\ude00",}`)
	if !ok {
		t.Fatalf("refused")
	}
	var obj map[string]string
	if err := json.Unmarshal([]byte(got), &obj); err != nil || obj["text"] != "hi 😀" {
		t.Fatalf("RepairArguments = %s (%q), want text %q", got, obj["text"], "hi 😀")
	}
}

// Names are normalized only to a tool they name unambiguously: two tools
// that differ in case alone leave a name matching both as given.
func TestNormalizeToolNameAmbiguousCase(t *testing.T) {
	known := []string{"Search", "search"}
	if got := turn.NormalizeToolName("SEARCH", known); got != "SEARCH" {
		t.Fatalf("NormalizeToolName(SEARCH) = %q, want it unchanged (ambiguous)", got)
	}
	if got := turn.NormalizeToolName("search", known); got != "search" {
		t.Fatalf("exact match lost: %q", got)
	}
}

// hangingCompleter streams nothing until its context ends; its plain
// call answers unless its context has already ended.
type hangingCompleter struct{}

func (hangingCompleter) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		<-ctx.Done()
		yield(turn.Chunk{}, ctx.Err())
	}
}

func (hangingCompleter) Complete(ctx context.Context, _ contract.ModelRequest) ([]turn.Chunk, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return []turn.Chunk{text("plain"), stop(contract.StopEndTurn)}, nil
}

// With the first-chunk timeout switched off (negative), a stream cut by
// the stall timeout before its first chunk falls back to a plain call
// that has time to answer, not one whose context expired at its start.
func TestFallbackWithFirstChunkTimeoutOff(t *testing.T) {
	r := &recorder{}
	opts := testOptions(r)
	opts.FirstChunkTimeout = -1
	opts.IdleTimeout = 30 * time.Millisecond
	opts.MaxRetries = turn.NoRetries
	got := turn.NewDriver(hangingCompleter{}, opts).Run(context.Background(), weatherReq, r.publish)
	replied, ok := got.(contract.ModelReplied)
	if !ok || replied.Reply.Text() != "plain" {
		t.Fatalf("got %#v, want the plain call's reply", got)
	}
}

// A summary the token limit cut is not a summary: compaction would
// replace the history with half of one.
func TestSummarizeCutByTokenLimit(t *testing.T) {
	f := newFake(play{chunks: []turn.Chunk{text("The user wants the weather in Par"), stop(contract.StopMaxTokens)}})
	got, err := turn.Summarize(context.Background(), f, "m", "condense this", testOptions(&recorder{}))
	if err == nil {
		t.Fatalf("Summarize = %q, nil; want an error for a summary cut by max_tokens", got)
	}
}

// Once the call's total deadline has come, no plain call is made after
// it: the deadline ends the call, it does not buy one more attempt.
func TestNoFallbackAfterTotalDeadline(t *testing.T) {
	r := &recorder{}
	opts := testOptions(r)
	opts.TotalTimeout = 40 * time.Millisecond
	p := &silent{}
	got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, r.publish)
	if f, ok := got.(contract.ModelFailed); !ok || f.Failure != contract.FailTimeout {
		t.Fatalf("got %#v, want a timeout", got)
	}
	if c := p.completes.Load(); c != 0 {
		t.Errorf("%d plain calls made after the total deadline, want 0", c)
	}
	for _, ev := range r.events {
		if ev.Kind == contract.EvModelRetry {
			t.Errorf("retry event after the total deadline: %q", ev.Text)
		}
	}
}

// With TextToolCalls on, only a text that is exactly one JSON tool call
// becomes a call: one followed by more text (here after a stray brace)
// stays text.
func TestTextToolCallTrailingText(t *testing.T) {
	r := &recorder{}
	opts := testOptions(r)
	opts.TextToolCalls = true
	f := newFake(play{chunks: []turn.Chunk{text(`{"name": "search", "arguments": {"q": "x"}}} and then I would delete everything`), stop(contract.StopEndTurn)}})
	got := turn.NewDriver(f, opts).Run(context.Background(), weatherReq, r.publish)
	replied, ok := got.(contract.ModelReplied)
	if !ok {
		t.Fatalf("got %#v", got)
	}
	if calls := replied.Reply.Calls(); len(calls) != 0 {
		t.Fatalf("text with more after the JSON became calls %+v", calls)
	}
}
