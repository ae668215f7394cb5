package tracing_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/provider/anthropic"
	"github.com/batonrt/baton/provider/openai"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestFinishReasons: a chat span's gen_ai.response.finish_reasons is why
// the model stopped, as the provider said, in the conventions' words: a
// reply the token limit cut is "length", not "stop", and its output
// message says the same.
func TestFinishReasons(t *testing.T) {
	call := []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"x"}`}}
	tests := []struct {
		name    string
		replies []scripted.Reply
		want    []string // each chat span's, in order
	}{
		{"end_turn", []scripted.Reply{{Text: "done"}}, []string{"stop"}},
		{"tool_use", []scripted.Reply{{Calls: call}, {Text: "done"}}, []string{"tool_call", "stop"}},
		{"max_tokens", []scripted.Reply{{Text: "cut sho", Stop: contract.StopMaxTokens}}, []string{"length"}},
		{"max_tokens with a call", []scripted.Reply{{Text: "calling", Calls: call, Stop: contract.StopMaxTokens}, {Text: "done"}}, []string{"length", "stop"}},
		{"refusal", []scripted.Reply{{Text: "no", Stop: contract.StopRefusal}}, []string{"content_filter"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spans := run(t, contract.AgentConfig{Model: "m"}, scripted.New(tt.replies...), tracing.Options{Content: true})
			slices.SortFunc(spans, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
			var got, outputs []string
			for _, s := range spans {
				if s.Name != "chat m" {
					continue
				}
				a := attrs(s)
				got = append(got, a["gen_ai.response.finish_reasons"])
				outputs = append(outputs, a["gen_ai.output.messages"])
			}
			var want []string
			for _, r := range tt.want {
				want = append(want, `["`+r+`"]`)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("finish reasons (-want +got):\n%s", diff)
			}
			for i, out := range outputs {
				if i < len(tt.want) && !strings.HasSuffix(out, `"finish_reason":"`+tt.want[i]+`"}]`) {
					t.Errorf("output message %d %s does not finish with %q", i, out, tt.want[i])
				}
			}
		})
	}
}

// TestFinishReasonsOfOldRunLogs: events from a run log written before
// turn_completed carried the stop are still given a finish reason, told
// by the reply's calls.
func TestFinishReasonsOfOldRunLogs(t *testing.T) {
	log := `{"seq":1,"session_id":"s1","run_id":"r1","at":1000000000,"kind":"run_started"}
{"seq":2,"session_id":"s1","run_id":"r1","at":2000000000,"kind":"turn_started","round":1}
{"seq":3,"session_id":"s1","run_id":"r1","at":3000000000,"kind":"turn_completed","turn":{"role":"assistant","blocks":[{"kind":"tool_call","call":{"id":"c1","name":"echo","arguments":"{}"}}]}}
{"seq":4,"session_id":"s1","run_id":"r1","at":4000000000,"kind":"turn_started","round":2}
{"seq":5,"session_id":"s1","run_id":"r1","at":5000000000,"kind":"turn_completed","turn":{"role":"assistant","blocks":[{"kind":"text","text":"done"}]}}
{"seq":6,"session_id":"s1","run_id":"r1","at":6000000000,"kind":"run_settled"}
`
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	tr := tracing.New(tp, tracing.Options{})
	for ev, err := range ledger.ReadJSONL(strings.NewReader(log)) {
		if err != nil {
			t.Fatal(err)
		}
		tr.Observe(ev)
	}
	spans := exp.GetSpans()
	slices.SortFunc(spans, func(a, b tracetest.SpanStub) int { return a.StartTime.Compare(b.StartTime) })
	var got []string
	for _, s := range spans {
		if s.Name == "chat" {
			got = append(got, attrs(s)["gen_ai.response.finish_reasons"])
		}
	}
	if diff := cmp.Diff([]string{`["tool_call"]`, `["stop"]`}, got); diff != "" {
		t.Errorf("finish reasons (-want +got):\n%s", diff)
	}
}

// TestFinishReasonFromTheWire: a real provider's stream that the token
// limit cut, served over loopback in its API's format, makes a chat span
// whose finish reason is "length", and a turn_completed event whose stop
// is max_tokens.
func TestFinishReasonFromTheWire(t *testing.T) {
	tests := []struct {
		name string
		body string
		dial func(url string, c *http.Client) turn.Provider
	}{
		{"openai", strings.Replace(openaiStream("gpt-4o", "chatcmpl-cut"), `"finish_reason":"stop"`, `"finish_reason":"length"`, 1),
			func(url string, c *http.Client) turn.Provider {
				return openai.New(endpoint.BaseURL(url), endpoint.HTTPClient(c))
			}},
		{"anthropic", strings.Replace(anthropicStream("gpt-4o", "msg_cut"), `"stop_reason":"end_turn"`, `"stop_reason":"max_tokens"`, 1),
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
			spans, completed := runRecorded(t, contract.AgentConfig{Model: "gpt-4o", MaxOutputTokens: 64}, tt.dial(srv.URL, srv.Client()))
			if got := attrs(find(t, spans, "chat gpt-4o"))["gen_ai.response.finish_reasons"]; got != `["length"]` {
				t.Errorf("finish reasons %s, want [\"length\"]", got)
			}
			var stops []contract.StopReason
			for _, ev := range completed {
				stops = append(stops, ev.Stop)
			}
			if diff := cmp.Diff([]contract.StopReason{contract.StopMaxTokens}, stops); diff != "" {
				t.Errorf("turn_completed stops (-want +got):\n%s", diff)
			}
		})
	}
}
