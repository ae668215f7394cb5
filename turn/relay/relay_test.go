package relay

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/httpfail"
)

// events plays a list of words, then err.
type events struct {
	words  []string
	i      int
	err    error
	closed int
}

func (e *events) Next() bool      { e.i++; return e.i <= len(e.words) }
func (e *events) Current() string { return e.words[e.i-1] }
func (e *events) Err() error      { return e.err }
func (e *events) Close() error    { e.closed++; return nil }

// decoder makes a text chunk of each word and stops at "."; without one
// the reply is incomplete.
type decoder struct{ done bool }

func (d *decoder) Decode(w string) []turn.Chunk {
	if w == "." {
		d.done = true
		return nil
	}
	return []turn.Chunk{{Kind: turn.ChunkText, Text: w}}
}

func (d *decoder) End() ([]turn.Chunk, error) {
	if !d.done {
		return nil, &turn.ProviderError{Failure: contract.FailStream, Message: "demo: no stop"}
	}
	return []turn.Chunk{{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}, nil
}

var failures = httpfail.Classifier{API: "demo"}

func text(s string) turn.Chunk { return turn.Chunk{Kind: turn.ChunkText, Text: s} }

var stop = turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}

func TestRun(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		words []string
		err   error
		resp  *http.Response
		limit int
		want  []turn.Chunk
		fail  contract.FailureKind
	}{
		{name: "whole reply", words: []string{"a", "b", "."}, want: []turn.Chunk{text("a"), text("b"), stop}},
		{name: "stream error after status", words: []string{"a"}, err: errors.New("unexpected EOF"), resp: &http.Response{StatusCode: 200},
			want: []turn.Chunk{text("a")}, fail: contract.FailStream},
		{name: "http error", err: errors.New("429"), resp: &http.Response{StatusCode: 429, Header: http.Header{}}, fail: contract.FailRateLimited},
		{name: "incomplete", words: []string{"a"}, resp: &http.Response{StatusCode: 200}, want: []turn.Chunk{text("a")}, fail: contract.FailStream},
		{name: "incomplete because cancelled", ctx: cancelled, words: []string{"a"}, want: []turn.Chunk{text("a")}, fail: contract.FailOther},
		{name: "caller stops early", words: []string{"a", "b", "."}, limit: 1, want: []turn.Chunk{text("a")}},
		{name: "caller stops in the tail", words: []string{"a", "."}, limit: 1, want: []turn.Chunk{text("a")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			ev := &events{words: tt.words, err: tt.err}
			var got []turn.Chunk
			var gotErr error
			Run(ctx, ev, tt.resp, &decoder{}, failures, func(c turn.Chunk, err error) bool {
				if err != nil {
					gotErr = err
					return false
				}
				got = append(got, c)
				return tt.limit == 0 || len(got) < tt.limit
			})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			var pe *turn.ProviderError
			switch {
			case tt.fail == "" && gotErr != nil:
				t.Errorf("unexpected error %v", gotErr)
			case tt.fail != "" && (!errors.As(gotErr, &pe) || pe.Failure != tt.fail):
				t.Errorf("error %v, want %s", gotErr, tt.fail)
			}
			if ev.closed != 1 {
				t.Errorf("closed %d times, want 1", ev.closed)
			}
		})
	}
}

// TestSDK: a request that does not build never opens a stream, and each
// range gets a fresh decoder, so a sequence replays whole.
func TestSDK(t *testing.T) {
	opened := 0
	s := SDK[string, string]{
		Build: func(req contract.ModelRequest) (string, error) {
			if req.Model == "" {
				return "", errors.New("model is empty")
			}
			return req.Model, nil
		},
		Open: func(_ context.Context, model string, resp **http.Response) Events[string] {
			opened++
			*resp = &http.Response{StatusCode: 200}
			return &events{words: []string{model, "."}}
		},
		Decoder:  func() Decoder[string] { return &decoder{} },
		Failures: failures,
	}
	for _, err := range s.Stream(context.Background(), contract.ModelRequest{}) {
		var pe *turn.ProviderError
		if !errors.As(err, &pe) || pe.Failure != contract.FailInvalidRequest {
			t.Errorf("error %v, want invalid_request", err)
		}
	}
	if opened != 0 {
		t.Fatalf("opened %d streams for a bad request, want 0", opened)
	}
	seq := s.Stream(context.Background(), contract.ModelRequest{Model: "m"})
	for range 2 {
		var got []turn.Chunk
		for c, err := range seq {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, c)
		}
		if diff := cmp.Diff([]turn.Chunk{text("m"), stop}, got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	}
}
