package httpfail

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

var now = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// frame reads a frame written as "frame <type>: <message>".
func frame(err error) (typ, msg string, ok bool) {
	var t, m string
	if _, e := fmt.Sscanf(err.Error(), "frame %s %s", &t, &m); e != nil {
		return "", "", false
	}
	return t, m, true
}

func TestClassify(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	status := func(code int, h http.Header) *http.Response {
		return &http.Response{StatusCode: code, Header: h}
	}
	type got struct {
		Fail       contract.FailureKind
		Status     int
		RetryAfter time.Duration
		Message    string
		Retryable  bool
	}
	tests := []struct {
		name string
		ctx  context.Context
		resp *http.Response
		err  error
		want got
	}{
		{"cancelled wins over status", cancelled, status(500, nil), errors.New("x"),
			got{contract.FailOther, 0, 0, "demo: call interrupted", false}},
		{"deadline is a timeout", expired, nil, errors.New("x"),
			got{contract.FailTimeout, 0, 0, "demo: call interrupted", true}},
		{"rate limited with wait", context.Background(), status(429, http.Header{"Retry-After": {"7"}}), errors.New("slow down"),
			got{contract.FailRateLimited, 429, 7 * time.Second, "demo: request failed", true}},
		{"overflow from message", context.Background(), status(400, http.Header{}), errors.New("400: context_length_exceeded"),
			got{contract.FailContextOverflow, 400, 0, "demo: request failed", false}},
		{"error frame", context.Background(), status(200, nil), errors.New("frame overloaded_error busy"),
			got{contract.FailServer, 0, 0, "demo: error frame in stream: busy", true}},
		{"no response is network", context.Background(), nil, errors.New("dial tcp: refused"),
			got{contract.FailNetwork, 0, 0, "demo: request failed", true}},
		{"broken body is stream", context.Background(), status(200, nil), errors.New("unexpected EOF"),
			got{contract.FailStream, 0, 0, "demo: stream broke", true}},
		{"nil error still classifies", context.Background(), status(200, nil), nil,
			got{contract.FailStream, 0, 0, "demo: stream broke", true}},
	}
	c := Classifier{API: "demo", Frame: frame, Now: func() time.Time { return now }}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pe := c.Classify(tt.ctx, tt.resp, tt.err)
			if diff := cmp.Diff(tt.want, got{pe.Failure, pe.Status, pe.RetryAfter, pe.Message, pe.Retryable()}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			cause := tt.err
			if tt.ctx.Err() != nil {
				cause = tt.ctx.Err()
			}
			if cause != nil && !errors.Is(pe, cause) {
				t.Errorf("%v does not wrap %v", pe, cause)
			}
		})
	}
}

func TestInterruptedWrapsContextError(t *testing.T) {
	pe := Classifier{API: "demo"}.Interrupted(context.DeadlineExceeded)
	if pe.Failure != contract.FailTimeout || !errors.Is(pe, context.DeadlineExceeded) {
		t.Errorf("got %v, want a timeout wrapping context.DeadlineExceeded", pe)
	}
}

func TestBadRequest(t *testing.T) {
	sentinel := errors.New("demo: bad request")
	pe := Classifier{API: "demo"}.BadRequest(fmt.Errorf("%w: model is empty", sentinel))
	if pe.Failure != contract.FailInvalidRequest || pe.Retryable() || !errors.Is(pe, sentinel) {
		t.Errorf("got %v, want a final invalid request wrapping the sentinel", pe)
	}
	if got, want := pe.Error(), "turn: provider invalid_request: demo: bad request: model is empty"; got != want {
		t.Errorf("got %q, want %q: the provider's own error says \"bad request\" once", got, want)
	}
	if got, want := (Classifier{API: "demo"}).BadRequest(errors.New("tool x: no schema")).Error(), "turn: provider invalid_request: demo: bad request: tool x: no schema"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestStreamedJSON(t *testing.T) {
	tests := []struct {
		err    error
		raw    string
		wantOK bool
	}{
		{errors.New(`received error while streaming: {"error":{"type":"x"}}`), `{"error":{"type":"x"}}`, true},
		{fmt.Errorf("wrapped: %w", errors.New(`received error while streaming: oops`)), "oops", true},
		{errors.New("unexpected EOF"), "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		raw, ok := StreamedJSON(tt.err)
		if raw != tt.raw || ok != tt.wantOK {
			t.Errorf("StreamedJSON(%v) = %q, %v; want %q, %v", tt.err, raw, ok, tt.raw, tt.wantOK)
		}
	}
}

// TestClassifyReadsBody: when the SDK could read no message out of an
// error body, the body itself decides, and it still reads whole after.
func TestClassifyReadsBody(t *testing.T) {
	const body = `{"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError","code":400}`
	resp := &http.Response{StatusCode: 400, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body))}
	c := Classifier{API: "demo", Detail: func(error) string { return "  " }}
	pe := c.Classify(context.Background(), resp, errors.New("400 Bad Request"))
	if pe.Failure != contract.FailContextOverflow {
		t.Errorf("got %s, want %s", pe.Failure, contract.FailContextOverflow)
	}
	if got, _ := io.ReadAll(resp.Body); string(got) != body {
		t.Errorf("body after classifying = %q, want %q", got, body)
	}
}
