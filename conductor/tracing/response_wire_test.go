package tracing_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/anthropic"
	"github.com/batonrt/baton/provider/openai"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// openaiStream is a Chat Completions stream answering "Hi." whose frames
// name model and id.
func openaiStream(model, id string) string {
	var b strings.Builder
	for _, choice := range []string{
		`{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}`,
		`{"index":0,"delta":{"content":"Hi."},"finish_reason":null}`,
		`{"index":0,"delta":{},"finish_reason":"stop"}`,
	} {
		fmt.Fprintf(&b, `data: {"id":%q,"object":"chat.completion.chunk","created":1,"model":%q,"choices":[%s]}`+"\n\n", id, model, choice)
	}
	fmt.Fprintf(&b, `data: {"id":%q,"object":"chat.completion.chunk","created":1,"model":%q,"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}`+"\n\n", id, model)
	return b.String() + "data: [DONE]\n\n"
}

// anthropicStream is a Messages stream answering "Hi." whose
// message_start names model and id.
func anthropicStream(model, id string) string {
	var b strings.Builder
	for _, ev := range [][2]string{
		{"message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":%q,"type":"message","role":"assistant","content":[],"model":%q,"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`, id, model)},
		{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`},
		{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi."}}`},
		{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`},
		{"message_stop", `{"type":"message_stop"}`},
	} {
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", ev[0], ev[1])
	}
	return b.String()
}

// TestResponseFromTheWire: a real provider's stream, served over
// loopback in its API's format, names the model that answered and the
// reply's id; the chat span carries them as gen_ai.response.model and
// gen_ai.response.id, and the reply's turn_completed event as
// ResponseModel and ResponseID.
func TestResponseFromTheWire(t *testing.T) {
	tests := []struct {
		name      string
		asked     string // the model the agent asks for
		model, id string // what the server says answered
		body      string
		dial      func(url string, c *http.Client) turn.Provider
	}{
		{"openai", "gpt-4o", "gpt-4o-2024-08-06", "chatcmpl-wire1", openaiStream("gpt-4o-2024-08-06", "chatcmpl-wire1"),
			func(url string, c *http.Client) turn.Provider {
				return openai.New(endpoint.BaseURL(url), endpoint.HTTPClient(c))
			}},
		{"anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "msg_01Wire", anthropicStream("claude-sonnet-4-5-20250929", "msg_01Wire"),
			func(url string, c *http.Client) turn.Provider {
				return anthropic.New(endpoint.BaseURL(url), endpoint.HTTPClient(c))
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, tt.body)
			}))
			defer srv.Close()
			spans, completed := runRecorded(t, contract.AgentConfig{Model: tt.asked, MaxOutputTokens: 64}, tt.dial(srv.URL, srv.Client()))

			all := attrs(find(t, spans, "chat "+tt.asked))
			got := map[string]string{"gen_ai.response.model": all["gen_ai.response.model"], "gen_ai.response.id": all["gen_ai.response.id"]}
			want := map[string]string{"gen_ai.response.model": tt.model, "gen_ai.response.id": tt.id}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("chat span's response attributes mismatch (-want +got):\n%s", diff)
			}
			type response struct{ Text, Model, ID string }
			var events []response
			for _, ev := range completed {
				events = append(events, response{ev.Turn.Text(), ev.ResponseModel, ev.ResponseID})
			}
			if diff := cmp.Diff([]response{{"Hi.", tt.model, tt.id}}, events); diff != "" {
				t.Errorf("turn_completed events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// runRecorded is run, also returning the run's turn_completed events of
// an assistant turn.
func runRecorded(t *testing.T, cfg contract.AgentConfig, model turn.Provider) (tracetest.SpanStubs, []contract.RunEvent) {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	agent, err := conductor.CreateAgent(cfg, conductor.Deps{
		Model: conductor.Model{Provider: model},
		Env:   conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Step: time.Second}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	var (
		mu        sync.Mutex
		completed []contract.RunEvent
	)
	defer agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvTurnCompleted && ev.Turn != nil && ev.Turn.Role == contract.RoleAssistant {
			mu.Lock()
			completed = append(completed, ev)
			mu.Unlock()
		}
	})()
	detach := tracing.New(tp, tracing.Options{}).Attach(agent)
	defer detach()
	if _, err := agent.Submit(context.Background(), conductor.Text("hello")); err != nil {
		t.Fatal(err)
	}
	if err := agent.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return exp.GetSpans(), completed
}
