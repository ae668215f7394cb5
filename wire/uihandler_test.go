package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/google/go-cmp/cmp"
)

func chatBody(id, text string) string {
	b, _ := json.Marshal(map[string]any{
		"id": id, "trigger": "submit-message",
		"messages": []any{map[string]any{"id": "u-" + text, "role": "user", "parts": []any{
			map[string]any{"type": "step-start"},
			map[string]any{"type": "text", "text": text},
		}}},
	})
	return string(b)
}

// readUI parses a UI message stream body into its chunk types; the
// closing [DONE] is kept as a type of its own.
func readUI(t *testing.T, r io.Reader) ([]string, []aisdk.Chunk) {
	t.Helper()
	types, chunks, err := decodeUI(r)
	if err != nil {
		t.Fatal(err)
	}
	return types, chunks
}

// decodeUI is readUI for goroutines other than the test's, which may not
// end the test.
func decodeUI(r io.Reader) ([]string, []aisdk.Chunk, error) {
	var types []string
	var chunks []aisdk.Chunk
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20) // a lagging stream merges deltas into long lines
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			types = append(types, data)
			continue
		}
		var c aisdk.Chunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			return types, chunks, fmt.Errorf("bad data %q: %w", data, err)
		}
		types, chunks = append(types, c.Type), append(chunks, c)
	}
	if err := sc.Err(); err != nil {
		return types, chunks, fmt.Errorf("read ui stream: %w", err)
	}
	return types, chunks, nil
}

func TestHandlerAISDKStreamsRun(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.postChat(context.Background(), chatBody("c1", "weather in Paris?"))
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get(aisdk.StreamHeader) != aisdk.StreamVersion {
		t.Fatalf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	types, chunks := readUI(t, resp.Body)
	if types[0] != aisdk.Start || types[len(types)-2] != aisdk.Finish || types[len(types)-1] != "[DONE]" {
		t.Fatalf("stream must open with start and close with finish, [DONE]: %v", types)
	}
	var text strings.Builder
	for _, c := range chunks {
		if c.Type == aisdk.TextDelta {
			text.WriteString(c.Delta)
		}
	}
	if diff := cmp.Diff("Let me check.It is 18C in Paris.", text.String()); diff != "" {
		t.Errorf("text mismatch (-want +got):\n%s", diff)
	}
	turns := e.agent("c1").Snapshot().History.Turns()
	if diff := cmp.Diff("weather in Paris?", turns[0].Text()); diff != "" {
		t.Errorf("submitted text mismatch (-want +got):\n%s", diff)
	}
}

func TestHandlerAISDKProtocolOption(t *testing.T) {
	e := newEnv(t, weatherScript)
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) { return e.h.newRunner(ctx, id) }, HandlerOptions{Protocol: ProtocolAISDK})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	resp, err := http.Post(srv.URL+"/api/chat", "application/json", strings.NewReader(chatBody("c1", "hi")))
	if err != nil {
		t.Fatal(err)
	}
	uiTypes, _ := readUI(t, resp.Body)
	resp.Body.Close()
	if len(uiTypes) == 0 || uiTypes[len(uiTypes)-1] != "[DONE]" {
		t.Errorf("default ai-sdk handler: %v", uiTypes)
	}
	// The query parameter still picks AG-UI on the same handler.
	resp, err = http.Post(srv.URL+"/api/chat?protocol=ag-ui", "application/json", strings.NewReader(runBody("t2", "hi")))
	if err != nil {
		t.Fatal(err)
	}
	frames := readSSE(t, resp.Body)
	resp.Body.Close()
	if got := types(frames); len(got) == 0 || got[0] != agui.RunStarted {
		t.Errorf("ag-ui on an ai-sdk handler: %v", got)
	}
}

func TestHandlerAISDKNDJSON(t *testing.T) {
	e := newEnv(t, weatherScript)
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"?protocol=ai-sdk", strings.NewReader(chatBody("c1", "hi")))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var last contract.EventKind
	for ev, err := range ledger.ReadJSONL(resp.Body) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev.Kind
	}
	if last != contract.EvRunSettled {
		t.Errorf("last event %q, want run_settled", last)
	}
}

func TestHandlerAISDKResumeWithoutRunIsNoContent(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.postChat(context.Background(), chatBody("c1", "hi"))
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	for _, path := range []string{"/api/chat/c1/stream", "/api/chat/nobody/stream"} {
		r, err := http.Get(e.srv.URL + path + "?protocol=ai-sdk")
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusNoContent {
			t.Errorf("GET %s: %d, want 204", path, r.StatusCode)
		}
	}
}

func TestHandlerAISDKBadInput(t *testing.T) {
	e := newEnv(t, weatherScript)
	tests := []struct {
		name, method, url, body string
		code                    int
		msg                     string
	}{
		{"unknown protocol", "POST", "?protocol=grpc", chatBody("x", "hi"), 400, `protocol "grpc"`},
		{"malformed json", "POST", "?protocol=ai-sdk", "{nope", 400, "bad chat request"},
		{"no id", "POST", "?protocol=ai-sdk", `{"messages":[]}`, 400, "id is empty"},
		{"no messages", "POST", "?protocol=ai-sdk", `{"id":"x","messages":[]}`, 400, "messages is empty"},
		{"regenerate", "POST", "?protocol=ai-sdk", `{"id":"x","trigger":"regenerate-message","messages":[{"id":"a","role":"assistant","parts":[{"type":"text","text":"hi"}]}]}`, 400, "not a user message"},
		{"no text part", "POST", "?protocol=ai-sdk", `{"id":"x","messages":[{"id":"u","role":"user","parts":[{"type":"file","url":"a"}]}]}`, 400, "no text part"},
		{"parts not an array", "POST", "?protocol=ai-sdk", `{"id":"x","messages":[{"id":"u","role":"user","parts":7}]}`, 400, "bad chat request"},
		{"factory refuses", "POST", "?protocol=ai-sdk", chatBody("forbidden-1", "hi"), 404, "unknown thread"},
		{"get without stream path", "GET", "/api/chat?protocol=ai-sdk", "", 400, "/{chat id}/stream"},
		{"get with empty id", "GET", "/api/chat//stream?protocol=ai-sdk", "", 400, "bad chat id"},
		{"method", "DELETE", "?protocol=ai-sdk", "", 405, "not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, e.srv.URL+tt.url, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
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

// failingRunner refuses every submit before a run starts.
type failingRunner struct{}

func (failingRunner) Submit(context.Context, []contract.Turn) (contract.RunSnapshot, error) {
	return contract.RunSnapshot{}, contract.NewError(contract.KindConfig, "no model")
}
func (failingRunner) Subscribe(func(contract.RunEvent)) func() { return func() {} }
func (failingRunner) EventsSince(context.Context, uint64) ([]contract.RunEvent, error) {
	return nil, nil
}
func (failingRunner) Snapshot() contract.RunSnapshot {
	return contract.RunSnapshot{Phase: contract.PhaseIdle}
}
func (failingRunner) Close() error { return nil }

func TestHandlerAISDKRunThatNeverStarted(t *testing.T) {
	h := NewRunnerHandler(func(context.Context, string) (Runner, error) { return failingRunner{}, nil }, HandlerOptions{Protocol: ProtocolAISDK})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(chatBody("c1", "hi")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	types, chunks := readUI(t, resp.Body)
	if diff := cmp.Diff([]string{aisdk.Start, aisdk.Error, aisdk.Finish, "[DONE]"}, types); diff != "" {
		t.Fatalf("mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(chunks[1].ErrorText, "no model") {
		t.Errorf("error text %q does not say why", chunks[1].ErrorText)
	}
}
