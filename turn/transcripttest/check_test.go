package transcripttest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// fatalTB records the first fatal failure and stops the check there.
type fatalTB struct {
	testing.TB
	msg string
}

type stopped struct{}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(stopped{})
}

func failsWith(seq iter.Seq2[turn.Chunk, error]) (msg string) {
	tb := &fatalTB{}
	defer func() {
		if r := recover(); r != nil && r != (stopped{}) {
			panic(r)
		}
		msg = tb.msg
	}()
	CheckStream(tb, seq)
	return ""
}

func seqOf(err error, chunks ...turn.Chunk) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
		if err != nil {
			yield(turn.Chunk{}, err)
		}
	}
}

func TestCheckStream(t *testing.T) {
	start := turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "c", Name: "f"}
	args := turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: "{}"}
	stop := turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}
	resp := turn.Chunk{Kind: turn.ChunkResponse, Name: "m", Text: "r1"}
	usage := turn.Chunk{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 1}}
	failure := &turn.ProviderError{Failure: contract.FailStream, Message: "broke"}
	tests := []struct {
		name string
		seq  iter.Seq2[turn.Chunk, error]
		fail bool
	}{
		{"ends in stop", seqOf(nil, start, args, stop), false},
		{"ends in provider error", seqOf(failure, start, args), false},
		{"ends in a plain error", seqOf(errors.New("x"), start), true},
		{"ends without stop", seqOf(nil, start, args), true},
		{"args before start", seqOf(nil, args, stop), true},
		{"started twice", seqOf(nil, start, start, stop), true},
		{"response first", seqOf(nil, resp, start, args, stop), false},
		{"response after usage", seqOf(nil, usage, resp, start, args, stop), false},
		{"response before a failure", seqOf(failure, resp), false},
		{"response twice", seqOf(nil, resp, resp, start, args, stop), true},
		{"response after content", seqOf(nil, start, resp, args, stop), true},
		{"response after stop", seqOf(nil, start, args, stop, resp), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if msg := failsWith(tt.seq); (msg != "") != tt.fail {
				t.Errorf("failure %q, want failing %v", msg, tt.fail)
			}
		})
	}
}

func TestCollect(t *testing.T) {
	s := Serve(t, []byte("### HTTP 503\n\ndown\n"))
	p := httpProvider{url: s.URL, client: s.Client()}
	got, err := Collect(context.Background(), p, contract.ModelRequest{})
	pe := FailureOf(t, err)
	if len(got) != 1 || pe.Status != 503 {
		t.Errorf("got %v and %v, want one chunk then a 503", got, err)
	}
}

// httpProvider is the least provider that talks HTTP: one text chunk per
// successful response, a *turn.ProviderError with the status otherwise.
type httpProvider struct {
	url    string
	client *http.Client
}

func (p httpProvider) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url, nil)
		resp, err := p.client.Do(req)
		if err != nil {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailNetwork, Err: err})
			return
		}
		resp.Body.Close()
		if !yield(turn.Chunk{Kind: turn.ChunkText, Text: resp.Status}, nil) || resp.StatusCode < 400 {
			return
		}
		yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailServer, Status: resp.StatusCode})
	}
}
