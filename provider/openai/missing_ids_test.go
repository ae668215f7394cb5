package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// Calls that an OpenAI-compatible server sends without ids get ids no
// other call of the session has: not call_1 in every reply, which made
// ids repeat across a session's turns and a call's retries, where
// clients key calls by id.
func TestCallsWithoutIDsGetIDsOfTheirOwn(t *testing.T) {
	const stream = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":[{"index":0,"type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},{"index":1,"type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Bergen\"}"}}]},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, stream)
	}))
	defer srv.Close()
	d := turn.NewDriver(New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client())), turn.Options{MaxRetries: turn.NoRetries, NoFallback: true})
	seen := map[string]bool{}
	for range 2 {
		r, ok := d.Run(context.Background(), basicRequest(), nil).(contract.ModelReplied)
		if !ok {
			t.Fatal("no reply")
		}
		for _, c := range r.Reply.Calls() {
			if c.ID == "" || seen[c.ID] {
				t.Errorf("call id %q is empty or was given before (%v)", c.ID, seen)
			}
			seen[c.ID] = true
		}
	}
	if len(seen) != 4 {
		t.Errorf("ids %v, want 4 calls", seen)
	}
}

// The same holds for a reply the fallback without streaming fetched.
func TestCompletedCallsWithoutIDsGetIDsOfTheirOwn(t *testing.T) {
	var c sdk.ChatCompletion
	if err := json.Unmarshal([]byte(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"get_weather","arguments":"{}"}},{"type":"function","function":{"name":"get_weather","arguments":"{}"}}]}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for range 2 {
		for _, ch := range completionChunks(&c) {
			if ch.Kind != turn.ChunkToolCallStart {
				continue
			}
			if ch.CallID == "" || seen[ch.CallID] {
				t.Errorf("call id %q is empty or was given before (%v)", ch.CallID, seen)
			}
			seen[ch.CallID] = true
		}
	}
	if len(seen) != 4 {
		t.Errorf("ids %v, want 4 calls", seen)
	}
}
