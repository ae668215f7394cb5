package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("disk full")
}

func TestJSONLRoundTrip(t *testing.T) {
	events := []contract.RunEvent{
		{Seq: 1, SessionID: "s", RunID: "r", At: 5, Kind: contract.EvRunStarted},
		{Seq: 1, Delta: 1, SessionID: "s", RunID: "r", Kind: contract.EvTextDelta, Text: "hi\n\"there\""},
		{Seq: 2, SessionID: "s", RunID: "r", Kind: contract.EvTurnCompleted, Turn: assistant(contract.TextBlock("hi")), Usage: &contract.Usage{InputTokens: 3}},
		{Seq: 3, SessionID: "s", RunID: "r", Kind: contract.EvRunFaulted, Err: &contract.RunError{Kind: contract.KindModel, Message: "down"}},
	}
	var buf bytes.Buffer
	sink := JSONLSink(&buf)
	for _, e := range events {
		sink(e)
	}
	if n := strings.Count(buf.String(), "\n"); n != len(events) {
		t.Fatalf("%d lines, want %d", n, len(events))
	}
	var got []contract.RunEvent
	for e, err := range ReadJSONL(&buf) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if diff := cmp.Diff(events, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestJSONLSinkStopsAfterWriteError(t *testing.T) {
	w := &failWriter{}
	sink := JSONLSink(w)
	sink(ev(1))
	sink(ev(2))
	if w.n != 1 {
		t.Errorf("%d writes, want 1", w.n)
	}
}

func TestReadJSONLErrors(t *testing.T) {
	tests := []struct {
		name, in string
		good     int
	}{
		{"not json", `{"seq":1,"session_id":"s","at":0,"kind":"lag"}` + "\n\nnope\n", 1},
		{"unknown field", `{"seq":1,"kind":"lag","bogus":1}`, 0},
		{"no kind", `{"seq":1}`, 0},
		{"trailing", `{"seq":1,"kind":"lag"} {}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			good := 0
			var last error
			for _, err := range ReadJSONL(strings.NewReader(tt.in)) {
				if err != nil {
					last = err
					continue
				}
				good++
			}
			if good != tt.good || !errors.Is(last, ErrMalformedLine) {
				t.Errorf("good=%d err=%v, want good=%d and ErrMalformedLine", good, last, tt.good)
			}
		})
	}
}

func assistant(blocks ...contract.Block) *contract.Turn {
	return &contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}
}

// A malformed line's error keeps what the decoder said, so a caller can
// tell a syntax error (and where it is) from an event of no kind.
func TestReadJSONLKeepsTheDecodersError(t *testing.T) {
	var last error
	for _, err := range ReadJSONL(strings.NewReader(`{"kind": "run_started",` + "\n")) {
		last = err
	}
	var syntax *json.SyntaxError
	var eof bool
	if !errors.As(last, &syntax) {
		eof = errors.Is(last, io.ErrUnexpectedEOF)
	}
	if !errors.Is(last, ErrMalformedLine) || (syntax == nil && !eof) {
		t.Fatalf("got %v, want ErrMalformedLine wrapping the decoder's error", last)
	}
}
