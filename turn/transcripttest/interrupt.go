package transcripttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Interruptions checks how calls that do not finish end. It needs the
// transcripts never_ends (one text chunk "Hello", then silence) and text.
// A response chunk naming the reply may come before the text chunk.
func (s Suite) Interruptions(t *testing.T) {
	t.Run("never ends", s.neverEnds)
	t.Run("deadline is timeout", s.deadline)
	t.Run("network failure", s.network)
	t.Run("stop early", s.stopEarly)
}

// neverEnds: a stream that goes quiet ends as soon as the caller's
// context does, with the context's error inside, and is final.
func (s Suite) neverEnds(t *testing.T) {
	_, p := s.Serve(t, "never_ends")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	var texts int
	for c, e := range p.Stream(ctx, s.Request()) {
		if e != nil {
			err = e
			break
		}
		if c.Kind == turn.ChunkResponse {
			continue
		}
		texts++
		if c.Text != "Hello" {
			t.Errorf("chunk %+v, want the one text chunk", c)
		}
		cancel()
	}
	if texts != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("got %d chunks and %v, want 1 chunk then context.Canceled", texts, err)
	}
	if pe := FailureOf(t, err); pe.Retryable() {
		t.Errorf("a cancelled call must not be retryable: %v", pe)
	}
}

func (s Suite) deadline(t *testing.T) {
	_, p := s.Serve(t, "never_ends")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := Collect(ctx, p, s.Request())
	if pe := FailureOf(t, err); pe.Failure != contract.FailTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a timeout wrapping context.DeadlineExceeded", err)
	}
}

func (s Suite) network(t *testing.T) {
	srv, p := s.Serve(t, "text")
	srv.Close()
	_, err := Collect(context.Background(), p, s.Request())
	if pe := FailureOf(t, err); pe.Failure != contract.FailNetwork || !pe.Retryable() {
		t.Errorf("got %v, want a retryable network failure", err)
	}
}

func (s Suite) stopEarly(t *testing.T) {
	_, p := s.Serve(t, "text")
	n := 0
	for range p.Stream(context.Background(), s.Request()) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("ranged %d chunks after break, want 1", n)
	}
}
