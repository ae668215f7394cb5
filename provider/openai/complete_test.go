package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestFallbackToACompletion: a server that answers every request with a
// plain JSON completion, streaming asked or not, as some local servers
// do. The stream sees no event, so the driver falls back to Complete.
func TestFallbackToACompletion(t *testing.T) {
	var streamed, plain atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		if body["stream"] == true {
			streamed.Add(1)
		} else {
			plain.Add(1)
			if _, ok := body["stream_options"]; ok {
				http.Error(w, `{"error":{"message":"stream_options needs stream"}}`, http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"Checking.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}}]}}],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`)
	}))
	defer srv.Close()
	d := turn.NewDriver(New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client())), turn.Options{MaxRetries: turn.NoRetries})
	got, resp := d.RunReply(context.Background(), basicRequest(), nil)
	rep, ok := got.(contract.ModelReplied)
	if !ok {
		t.Fatalf("got %#v", got)
	}
	want := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
		contract.TextBlock("Checking."),
		contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Oslo"}`}),
	}}
	if diff := cmp.Diff(want, rep.Reply); diff != "" {
		t.Errorf("reply mismatch (-want +got):\n%s", diff)
	}
	if rep.Stop != contract.StopToolUse || rep.Usage.InputTokens != 12 || streamed.Load() != 1 || plain.Load() != 1 {
		t.Errorf("stop %s usage %+v, %d streamed and %d plain calls", rep.Stop, rep.Usage, streamed.Load(), plain.Load())
	}
	if diff := cmp.Diff(turn.Response{Model: "m", ID: "c"}, resp); diff != "" {
		t.Errorf("the completion's model and id mismatch (-want +got):\n%s", diff)
	}
}

// TestCompletionRefusal: a whole completion's refusal is its text and
// its stop, as in a stream.
func TestCompletionRefusal(t *testing.T) {
	var c sdk.ChatCompletion
	if err := json.Unmarshal([]byte(`{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":null,"refusal":"I can't help with that."}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	want := []turn.Chunk{said("m", "c"), {Kind: turn.ChunkText, Text: "I can't help with that."}, {Kind: turn.ChunkStop, Stop: contract.StopRefusal}}
	if diff := cmp.Diff(want, completionChunks(&c)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
