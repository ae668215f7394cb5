package relay

import (
	"context"
	"iter"
	"net/http"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/httpfail"
)

// SDK is the whole Stream method of a provider over an SDK's streaming
// call, P being the SDK's request parameters and E its events: a provider
// supplies only what is its own and returns SDK.Stream from its Stream.
type SDK[P, E any] struct {
	// Build maps a request onto the SDK's parameters; its error is a bad
	// request, reported without sending anything.
	Build func(contract.ModelRequest) (P, error)
	// Open starts the streaming call, storing the HTTP response, once one
	// arrives, in *resp so failures classify by status and headers.
	Open func(ctx context.Context, params P, resp **http.Response) Events[E]
	// Decoder returns a fresh decoder for one reply.
	Decoder func() Decoder[E]
	// Failures classifies what ends the call.
	Failures httpfail.Classifier
}

// Stream sends req and yields the reply as it arrives. The request is
// made when the sequence is ranged over, once per range. The history goes
// through turn.Sanitize first: the turn driver has done so already, but a
// provider used on its own would otherwise send results out of their
// calls' order, which the APIs refuse. A well-formed history costs one
// look over it and no copy.
func (s SDK[P, E]) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	req.History = turn.Sanitize(req.History)
	return func(yield func(turn.Chunk, error) bool) {
		params, err := s.Build(req)
		if err != nil {
			yield(turn.Chunk{}, s.Failures.BadRequest(err))
			return
		}
		var resp *http.Response
		events := s.Open(ctx, params, &resp)
		Run(ctx, events, resp, s.Decoder(), s.Failures, yield)
	}
}
