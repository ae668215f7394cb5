package relay

import (
	"context"
	"net/http"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/httpfail"
)

// Events is the part of an SDK's event stream relay reads; the
// ssestream.Stream of openai-go and of anthropic-sdk-go both have it.
type Events[E any] interface {
	Next() bool
	Current() E
	Err() error
	Close() error
}

// Decoder turns one API's events into chunks. End is called once the
// events run out and returns the closing chunks, or an error when the
// reply is incomplete.
type Decoder[E any] interface {
	Decode(E) []turn.Chunk
	End() ([]turn.Chunk, error)
}

// Run yields the decoded chunks of one response, then the decoder's tail,
// or the failure that ended it. resp is the HTTP response, if one arrived.
func Run[E any](ctx context.Context, events Events[E], resp *http.Response, dec Decoder[E], failures httpfail.Classifier, yield func(turn.Chunk, error) bool) {
	defer events.Close()
	if pe := failures.WebPage(resp); pe != nil {
		yield(turn.Chunk{}, pe)
		return
	}
	for events.Next() {
		if !yieldAll(dec.Decode(events.Current()), yield) {
			return
		}
	}
	if err := events.Err(); err != nil {
		// A reply whose end the decoder has seen is whole: a connection
		// that breaks after it (before "[DONE]", say), or a server that
		// then says nothing until the idle timeout, spoils nothing, as
		// the driver holds for a stop. A call its caller cancelled stays
		// cancelled.
		if ctx.Err() == nil || turn.WentQuiet(ctx) {
			if tail, endErr := dec.End(); endErr == nil {
				yieldAll(tail, yield)
				return
			}
		}
		yield(turn.Chunk{}, failures.Classify(ctx, resp, err))
		return
	}
	tail, err := dec.End()
	if err != nil {
		// A reply cut short by the caller is the caller's doing, not the
		// server's.
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = failures.Interrupted(ctxErr)
		}
		yield(turn.Chunk{}, err)
		return
	}
	yieldAll(tail, yield)
}

func yieldAll(chunks []turn.Chunk, yield func(turn.Chunk, error) bool) bool {
	for _, c := range chunks {
		if !yield(c, nil) {
			return false
		}
	}
	return true
}
