package scripted_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

func req(text string) contract.ModelRequest {
	return contract.ModelRequest{Model: "m", History: contract.HistoryOf(contract.UserText(text)), Turn: 1}
}

// drain collects a stream's chunks and its error.
func drain(ctx context.Context, p turn.Provider, r contract.ModelRequest) ([]turn.Chunk, error) {
	var cs []turn.Chunk
	for c, err := range p.Stream(ctx, r) {
		if err != nil {
			return cs, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{}`, "no replies"},
		{`not json`, "invalid character"},
		{`{"replies": [{"txt": "x"}]}`, `unknown field "txt"`},
		{`{"replies": [{"text": "x"}]} {}`, "trailing data"},
		{`{"replies": [{"first_delay": "soon"}]}`, `invalid duration "soon"`},
		{`{"replies": [{"first_delay": 5}]}`, "duration must be a string"},
		{`{"replies": [{"chunk_delay": "-1s"}]}`, "reply 1: delays must not be negative"},
		{`{"replies": [{"text": "a"}, {"tool_calls": [{"id": "x"}]}]}`, "reply 2: tool call 1 has no name"},
		{`{"replies": [{"fail": {"cut": true, "hang": true}}]}`, "exclude each other"},
		{`{"replies": [{"fail": {"after": -1}}]}`, "fail.after must not be negative"},
		{`{"replies": [{"fail": {"status": 42}}]}`, "not an HTTP status"},
		{`{"replies": [{"fail": {"statsu": 429}}]}`, `unknown field "statsu"`},
	}
	for _, tt := range tests {
		_, err := scripted.Parse([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "scripted: ") {
			t.Errorf("Parse(%s) error %v, want one containing %q", tt.in, err, tt.want)
		}
	}
	if _, err := scripted.Load("testdata/missing.json"); err == nil || !strings.HasPrefix(err.Error(), "scripted: load") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestReplyJSONRoundTrip(t *testing.T) {
	want := scripted.Reply{
		Text: "a b", Thinking: "t", Signature: "s",
		Calls:      []scripted.Call{{ID: "c", Name: "n", Arguments: `{"x":1`}},
		Usage:      usage(1, 2, 3),
		Stop:       contract.StopMaxTokens,
		FirstDelay: time.Millisecond, ChunkDelay: 2 * time.Millisecond,
		Fail: &scripted.Failure{Status: 503, Kind: contract.FailServer, RetryAfter: time.Minute, Message: "m", After: 2, Cut: true},
	}
	var back scripted.Reply
	if err := json.Unmarshal(mustJSON(t, want), &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, back); diff != "" {
		t.Errorf("round trip mismatch (-want +got):\n%s", diff)
	}
	s, err := scripted.Parse(fmt.Appendf(nil, `{"replies": [%s]}`, mustJSON(t, want)))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := drain(context.Background(), s, req("x"))
	if err != nil {
		t.Errorf("a cut stream ends without an error, got %v", err)
	}
	if diff := cmp.Diff(want.Chunks()[:2], cs); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestChunksJoinBack(t *testing.T) {
	r := scripted.Reply{Thinking: "think hard ", Text: "héllo wörld  x", Calls: []scripted.Call{{Name: "f", Arguments: `{"k":"ünïcödé välüé"}`}}}
	var th, tx, args strings.Builder
	for _, c := range r.Chunks() {
		switch c.Kind {
		case turn.ChunkThinking:
			th.WriteString(c.Text)
		case turn.ChunkText:
			tx.WriteString(c.Text)
			if c.Text == "" {
				t.Error("empty text chunk")
			}
		case turn.ChunkToolCallArgs:
			args.WriteString(c.Text)
			if !utf8Valid(c.Text) {
				t.Errorf("argument fragment %q splits a rune", c.Text)
			}
		case turn.ChunkToolCallStart:
			if c.CallID != "call_1" {
				t.Errorf("default call id %q, want call_1", c.CallID)
			}
		}
	}
	got := []string{th.String(), tx.String(), args.String()}
	want := []string{r.Thinking, r.Text, r.Calls[0].Arguments}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestExhaustedAndRequests(t *testing.T) {
	s := scripted.New(scripted.Reply{Text: "one"})
	if _, err := drain(context.Background(), s, req("a")); err != nil {
		t.Fatal(err)
	}
	_, err := drain(context.Background(), s, req("b"))
	var pe *turn.ProviderError
	if !errors.As(err, &pe) || pe.Failure != contract.FailInvalidRequest || !errors.Is(err, scripted.ErrExhausted) {
		t.Fatalf("second call: %v, want invalid_request wrapping ErrExhausted", err)
	}
	var texts []string
	for _, r := range s.Requests() {
		texts = append(texts, r.History.Turns()[0].Text())
	}
	if diff := cmp.Diff([]string{"a", "b"}, texts); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
}

func TestExpect(t *testing.T) {
	s := scripted.Repeat(scripted.Reply{Text: "ok"}, 0)
	s.Expect = func(n int, r contract.ModelRequest) error {
		if n == 2 {
			return fmt.Errorf("turn %d: model %q", n, r.Model)
		}
		return nil
	}
	if _, err := drain(context.Background(), s, req("a")); err != nil {
		t.Fatal(err)
	}
	_, err := drain(context.Background(), s, req("b"))
	if !errors.Is(err, scripted.ErrUnexpectedRequest) || !strings.Contains(err.Error(), `turn 2: model "m"`) {
		t.Fatalf("refused call: %v", err)
	}
	got := turn.NewDriver(s, turn.Options{}).Run(context.Background(), req("c"), nil)
	if _, ok := got.(contract.ModelReplied); !ok {
		t.Fatalf("third call: %#v", got)
	}
}

func TestRepeatFuncEcho(t *testing.T) {
	rep := scripted.Repeat(scripted.Reply{Text: "x"}, 2)
	for i, wantErr := range []bool{false, false, true} {
		if _, err := drain(context.Background(), rep, req("a")); (err != nil) != wantErr {
			t.Errorf("Repeat call %d: err %v", i+1, err)
		}
	}
	n := 0
	f := scripted.Func(func(r contract.ModelRequest) scripted.Reply { n++; return scripted.Reply{Text: fmt.Sprint(n)} })
	d := turn.NewDriver(f, turn.Options{})
	for i := 1; i <= 3; i++ {
		r := d.Run(context.Background(), req("a"), nil).(contract.ModelReplied)
		if r.Reply.Text() != fmt.Sprint(i) {
			t.Errorf("Func call %d replied %q", i, r.Reply.Text())
		}
	}
	e := turn.NewDriver(scripted.Echo(), turn.Options{})
	if r := e.Run(context.Background(), req("echo me please"), nil).(contract.ModelReplied); r.Reply.Text() != "echo me please" {
		t.Errorf("Echo replied %q", r.Reply.Text())
	}
}

func TestConcurrentUse(t *testing.T) {
	s := scripted.Repeat(scripted.Reply{Text: "a b c"}, 40)
	d := turn.NewDriver(s, turn.Options{})
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			if _, ok := d.Run(context.Background(), req("x"), nil).(contract.ModelReplied); !ok {
				t.Error("a concurrent call failed")
			}
		})
	}
	wg.Wait()
	if n := len(s.Requests()); n != 40 {
		t.Errorf("%d requests recorded, want 40", n)
	}
}

func TestDelaysDriveTimeouts(t *testing.T) {
	slow := scripted.New(scripted.Reply{Text: "late", FirstDelay: time.Minute})
	opts := turn.Options{FirstChunkTimeout: 20 * time.Millisecond, MaxRetries: turn.NoRetries}
	got := turn.NewDriver(slow, opts).Run(context.Background(), req("x"), nil)
	if f, ok := got.(contract.ModelFailed); !ok || f.Failure != contract.FailTimeout {
		t.Fatalf("slow first chunk: %#v, want timeout", got)
	}
	paced := scripted.New(scripted.Reply{Text: "a b c", FirstDelay: time.Millisecond, ChunkDelay: time.Millisecond})
	got = turn.NewDriver(paced, turn.Options{IdleTimeout: time.Second}).Run(context.Background(), req("x"), nil)
	if r, ok := got.(contract.ModelReplied); !ok || r.Reply.Text() != "a b c" {
		t.Fatalf("paced reply: %#v", got)
	}
}

func TestHangEndsWithContext(t *testing.T) {
	s := scripted.New(scripted.Reply{Fail: &scripted.Failure{Hang: true}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := drain(ctx, s, req("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("hang after cancel: %v", err)
	}
}
