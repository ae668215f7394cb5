package turn_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func TestSummarize(t *testing.T) {
	f := newFake(play{chunks: []turn.Chunk{text("  The user "), text("wants weather. "), stop(contract.StopEndTurn)}})
	got, err := turn.Summarize(context.Background(), f, "m", "condense this", testOptions(&recorder{}))
	if err != nil || got != "The user wants weather." {
		t.Fatalf("Summarize = %q, %v", got, err)
	}
	want := contract.ModelRequest{Model: "m", System: turn.SummarySystem, History: contract.HistoryOf(contract.UserText("condense this")), Turn: 1, Summary: true}
	if diff := cmp.Diff(want, f.reqs[0]); diff != "" {
		t.Errorf("request mismatch (-want +got):\n%s", diff)
	}
}

func TestSummarizeErrors(t *testing.T) {
	opts := testOptions(&recorder{})
	opts.MaxRetries = turn.NoRetries
	empty := newFake(play{chunks: []turn.Chunk{stop(contract.StopEndTurn)}})
	if _, err := turn.Summarize(context.Background(), empty, "m", "x", opts); !errors.Is(err, turn.ErrEmptySummary) {
		t.Errorf("empty reply: err = %v, want ErrEmptySummary", err)
	}
	failing := newFake(play{err: &turn.ProviderError{Failure: contract.FailAuth, Status: 401}})
	_, err := turn.Summarize(context.Background(), failing, "m", "x", opts)
	var pe *turn.ProviderError
	if !errors.As(err, &pe) || pe.Failure != contract.FailAuth {
		t.Errorf("failed call: err = %v, want a ProviderError of kind auth", err)
	}
	if _, err := turn.Summarize(context.Background(), failing, "m", " ", opts); err == nil {
		t.Error("empty prompt accepted")
	}
}

// A summary cut short by the caller says so: the error is the context's.
func TestSummarizeCancelledIsContextCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := newFake(play{chunks: []turn.Chunk{text("never"), stop(contract.StopEndTurn)}})
	_, err := turn.Summarize(ctx, f, "m", "condense this", testOptions(&recorder{}))
	var pe *turn.ProviderError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &pe) {
		t.Errorf("err = %v, want a ProviderError wrapping context.Canceled", err)
	}
}
