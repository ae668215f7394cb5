package scripted

import (
	"context"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Stream plays the next reply. A request past the end of the script fails
// as invalid_request "script exhausted".
func (s *Script) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	n, reply, ok := s.take(req)
	expect := s.expect()
	return func(yield func(turn.Chunk, error) bool) {
		if expect != nil {
			if err := expect(n, req); err != nil {
				yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "expectation failed", Err: fmt.Errorf("%w: %w", ErrUnexpectedRequest, err)})
				return
			}
		}
		if !ok {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Err: ErrExhausted})
			return
		}
		play(ctx, reply, yield)
	}
}

func (s *Script) expect() func(int, contract.ModelRequest) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Expect
}

func play(ctx context.Context, r Reply, yield func(turn.Chunk, error) bool) {
	chunks := r.Chunks()
	limit := len(chunks)
	if r.Fail != nil {
		limit = min(r.Fail.After, limit)
	}
	for i, c := range chunks[:limit] {
		if err := pause(ctx, r.delay(i)); err != nil {
			yield(turn.Chunk{}, err)
			return
		}
		if !yield(c, nil) {
			return
		}
	}
	if r.Fail == nil {
		return
	}
	if err := pause(ctx, r.delay(limit)); err != nil {
		yield(turn.Chunk{}, err)
		return
	}
	switch f := r.Fail; {
	case f.Cut:
	case f.Hang:
		<-ctx.Done()
		yield(turn.Chunk{}, ctx.Err())
	default:
		yield(turn.Chunk{}, f.err())
	}
}

func (r Reply) delay(i int) time.Duration {
	if i == 0 {
		return r.FirstDelay
	}
	return r.ChunkDelay
}

func (f *Failure) err() *turn.ProviderError {
	kind := f.Kind
	if kind == "" {
		kind = contract.FailServer
		if f.Status != 0 {
			kind = turn.FailureForStatus(f.Status)
		}
	}
	msg := f.Message
	if msg == "" {
		msg = "scripted failure"
	}
	return &turn.ProviderError{Failure: kind, Status: f.Status, RetryAfter: f.RetryAfter, Message: msg}
}

func pause(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// argPiece is the size of the argument fragments a call streams in.
const argPiece = 8

// Chunks is the stream the reply plays when nothing fails: thinking by
// words then its signature, text by words, each call as a start, argument
// fragments and an end, usage when set, and the stop.
func (r Reply) Chunks() []turn.Chunk {
	var out []turn.Chunk
	for _, w := range words(r.Thinking) {
		out = append(out, turn.Chunk{Kind: turn.ChunkThinking, Text: w})
	}
	if r.Signature != "" {
		out = append(out, turn.Chunk{Kind: turn.ChunkThinking, Signature: r.Signature})
	}
	for _, w := range words(r.Text) {
		out = append(out, turn.Chunk{Kind: turn.ChunkText, Text: w})
	}
	for i, c := range r.Calls {
		out = append(out, turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: c.id(i), Name: c.Name})
		for a := c.Arguments; a != ""; {
			n := min(argPiece, len(a))
			for n < len(a) && !utf8.RuneStart(a[n]) {
				n++
			}
			out = append(out, turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: a[:n]})
			a = a[n:]
		}
		out = append(out, turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
	}
	if r.Usage != (contract.Usage{}) {
		out = append(out, turn.Chunk{Kind: turn.ChunkUsage, Usage: r.Usage})
	}
	stop := r.Stop
	if stop == "" {
		stop = contract.StopEndTurn
		if len(r.Calls) > 0 {
			stop = contract.StopToolUse
		}
	}
	return append(out, turn.Chunk{Kind: turn.ChunkStop, Stop: stop})
}

func (c Call) id(i int) string {
	if c.ID != "" {
		return c.ID
	}
	return "call_" + strconv.Itoa(i+1)
}

// words splits s after each space, so the pieces join back to s.
func words(s string) []string {
	if s == "" {
		return nil
	}
	ws := strings.SplitAfter(s, " ")
	if ws[len(ws)-1] == "" {
		ws = ws[:len(ws)-1]
	}
	return ws
}
