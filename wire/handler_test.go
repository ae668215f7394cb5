package wire

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/google/go-cmp/cmp"
)

func TestHandlerStreamsRun(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.post(context.Background(), runBody("t1", "weather in Paris?"), nil)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	frames := readSSE(t, resp.Body)
	got := types(frames)
	if got[0] != agui.RunStarted || got[len(got)-1] != agui.RunFinished {
		t.Fatalf("stream must open with RUN_STARTED and close with RUN_FINISHED: %v", got)
	}
	for _, want := range []string{agui.ReasoningMessageContent, agui.TextMessageContent, agui.ToolCallStart, agui.ToolCallArgs, agui.ToolCallEnd, agui.ToolCallResult, agui.StateSnapshot} {
		if !slices.Contains(got, want) {
			t.Errorf("no %s in %v", want, got)
		}
	}
	var text strings.Builder
	for _, f := range frames {
		if f.Event.Type == agui.TextMessageContent {
			text.WriteString(f.Event.Delta)
		}
	}
	if diff := cmp.Diff("Let me check.It is 18C in Paris.", text.String()); diff != "" {
		t.Errorf("text mismatch (-want +got):\n%s", diff)
	}
}

func TestHandlerNDJSON(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.post(context.Background(), runBody("t1", "weather?"), map[string]string{"Accept": "application/x-ndjson"})
	defer resp.Body.Close()
	var kinds []contract.EventKind
	for ev, err := range ledger.ReadJSONL(resp.Body) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Delta == 0 {
			kinds = append(kinds, ev.Kind)
		}
	}
	want := []contract.EventKind{contract.EvRunStarted, contract.EvTurnStarted, contract.EvTurnCompleted, contract.EvToolCall, contract.EvToolStarted, contract.EvToolResult, contract.EvTurnStarted, contract.EvTurnCompleted, contract.EvRunSettled}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestHandlerResumeFromLastEventID(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.post(context.Background(), runBody("t1", "weather?"), nil)
	full := readSSE(t, resp.Body)
	resp.Body.Close()
	// Resume after the first committed turn: what follows must equal the
	// committed part of the live stream after that point.
	cut := -1
	for i, f := range full {
		if f.Event.Type == agui.ToolCallEnd {
			cut = i
			break
		}
	}
	lastID := full[cut].ID
	resp = e.post(context.Background(), runBody("t1", "ignored"), map[string]string{"Last-Event-ID": lastID})
	defer resp.Body.Close()
	resumed := readSSE(t, resp.Body)
	want := []string{agui.RunStarted} // a resumed AG-UI stream reopens its run
	for _, f := range full[cut+1:] {
		if f.Event.Type != agui.TextMessageContent {
			want = append(want, f.Event.Type)
		}
	}
	var got []string
	for _, f := range resumed {
		if f.Event.Type != agui.TextMessageContent {
			got = append(got, f.Event.Type)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resumed stream mismatch (-want +got):\n%s", diff)
	}
	// Over GET too, for EventSource clients.
	r2, err := http.Get(e.srv.URL + "?threadId=t1&lastEventId=" + lastID)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Body.Close()
	if n := len(readSSE(t, r2.Body)); n != len(resumed) {
		t.Errorf("GET resume: %d events, POST resume %d", n, len(resumed))
	}
}

func TestHandlerBadInput(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.post(context.Background(), runBody("known", "hi"), nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	tests := []struct {
		name, method, body string
		header             map[string]string
		url                string
		code               int
		msg                string
	}{
		{"malformed json", "POST", "{nope", nil, "", 400, "bad run input"},
		{"no thread", "POST", `{"runId":"r","messages":[]}`, nil, "", 400, "threadId is empty"},
		{"no user message", "POST", `{"threadId":"x","runId":"r","messages":[{"id":"a","role":"assistant","content":"hi"}]}`, nil, "", 400, "no user message"},
		{"bad content", "POST", `{"threadId":"x","runId":"r","messages":[{"id":"a","role":"user","content":7}]}`, nil, "", 400, "string or an array"},
		{"user message without content", "POST", `{"threadId":"x","runId":"r","messages":[{"id":"a","role":"user","content":null}]}`, nil, "", 400, "no text"},
		{"user message without text", "POST", `{"threadId":"x","runId":"r","messages":[{"id":"a","role":"user","content":[{"type":"binary","mimeType":"image/png","data":"AA=="}]}]}`, nil, "", 400, "no text"},
		{"bad tool", "POST", `{"threadId":"x","runId":"r","messages":[],"tools":[{"name":"a b"}]}`, nil, "", 400, "tools[0]"},
		{"factory refuses", "POST", runBody("forbidden-1", "hi"), nil, "", 404, "unknown thread"},
		{"resume unknown thread", "POST", runBody("nobody", "hi"), map[string]string{"Last-Event-ID": "3"}, "", 404, "unknown thread"},
		{"resume bad id", "POST", runBody("known", "hi"), map[string]string{"Last-Event-ID": "x.y"}, "", 400, "Last-Event-ID"},
		{"get unknown", "GET", "", nil, "?threadId=nobody&lastEventId=1", 404, "unknown thread"},
		{"get no thread", "GET", "", nil, "?lastEventId=1", 400, "thread id is empty"},
		{"method", "PUT", "", nil, "", 405, "not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, e.srv.URL+tt.url, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tt.code || !strings.Contains(string(b), tt.msg) {
				t.Errorf("got %d %q, want %d containing %q", resp.StatusCode, b, tt.code, tt.msg)
			}
		})
	}
}

// blockingScript holds the first model call until gate closes.
func blockingScript(gate chan struct{}) func() []func(context.Context) ([]turn.Chunk, error) {
	return func() []func(context.Context) ([]turn.Chunk, error) {
		return []func(context.Context) ([]turn.Chunk, error){
			gated(gate, reply(
				turn.Chunk{Kind: turn.ChunkText, Text: "done"},
				turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})),
		}
	}
}

// A thread whose runner takes no steering (not a SteerRunner, as the
// counting runner of these tests) refuses a second message while its run
// is in flight; an agent's is steered (TestAMessageSteersTheRunInFlight).
func TestHandlerBusyThreadConflict(t *testing.T) {
	gate := make(chan struct{})
	e := newEnv(t, blockingScript(gate))
	first := e.post(context.Background(), runBody("t1", "one"), nil)
	defer first.Body.Close()
	waitFor(t, func() bool { return e.agent("t1") != nil && e.agent("t1").Snapshot().Phase.InFlight() })
	second := e.post(context.Background(), runBody("t1", "two"), nil)
	b, _ := io.ReadAll(second.Body)
	second.Body.Close()
	if second.StatusCode != http.StatusConflict || !strings.Contains(string(b), "in flight") {
		t.Errorf("second run: %d %q, want 409", second.StatusCode, b)
	}
	other := e.post(context.Background(), runBody("t2", "elsewhere"), nil)
	other.Body.Close()
	if other.StatusCode != http.StatusOK {
		t.Errorf("another thread: %d, want 200", other.StatusCode)
	}
	close(gate)
	if got := types(readSSE(t, first.Body)); got[len(got)-1] != agui.RunFinished {
		t.Errorf("first run did not finish: %v", got)
	}
}

func TestHandlerClientDisconnectLeavesNothingBehind(t *testing.T) {
	gate := make(chan struct{})
	e := newEnv(t, blockingScript(gate))
	ctx, cancel := context.WithCancel(context.Background())
	resp := e.post(ctx, runBody("t1", "one"), nil)
	buf := make([]byte, 64)
	if _, err := resp.Body.Read(buf); err != nil { // RUN_STARTED is on its way
		t.Fatal(err)
	}
	if e.subs.Load() != 1 || e.users("t1") != 1 {
		t.Fatalf("%d subscriptions and %d users during the stream, want 1 and 1", e.subs.Load(), e.users("t1"))
	}
	cancel()
	resp.Body.Close()
	waitFor(t, func() bool { return e.users("t1") == 0 })
	if e.subs.Load() != 1 {
		t.Errorf("%d subscriptions after the stream, want the thread's one", e.subs.Load())
	}
	// The run itself goes on and a reconnecting client gets its end.
	close(gate)
	waitFor(t, func() bool { return e.agent("t1").Snapshot().Phase.Terminal() })
	r2 := e.post(context.Background(), runBody("t1", "x"), map[string]string{"Last-Event-ID": "1"})
	defer r2.Body.Close()
	got := types(readSSE(t, r2.Body))
	if len(got) == 0 || got[0] != agui.RunStarted || got[len(got)-1] != agui.RunFinished {
		t.Errorf("resumed after disconnect: %v", got)
	}
}

// waitFor polls cond with tiny sleeps until a deadline; it checks state,
// not speed, so the deadline is far beyond what a busy machine needs and
// only stops a broken test hanging.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not reached in 20s")
}
