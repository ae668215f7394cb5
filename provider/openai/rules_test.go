package openai

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestRules: the rules a provider is told to follow decide which options
// it sends, whatever its host says. An Azure OpenAI deployment named
// "o3" that is o3 takes OpenAI's rules when told (temperature left off
// at its default, none other allowed); a compatible server that knows
// only max_tokens gets the output limit under that name. By default the
// host decides, as before.
func TestRules(t *testing.T) {
	one, cold := 1.0, 0.2
	tests := []struct {
		name        string
		rules       Rules
		model       string
		temperature *float64
		thinking    contract.ThinkingLevel
		sent        map[string]any // nil: refused before sending
		fields      []string       // what CheckConfig refuses
	}{
		{"by host: Azure o3 sent as asked", RulesByHost, "o3", &one, "",
			map[string]any{"temperature": 1.0, "max_completion_tokens": 100.0}, nil},
		{"OpenAI: Azure o3 without its default temperature", RulesOpenAI, "o3", &one, "",
			map[string]any{"max_completion_tokens": 100.0}, nil},
		{"OpenAI: Azure o3 refuses a temperature", RulesOpenAI, "o3", &cold, "", nil, []string{"Sampling.Temperature"}},
		{"OpenAI: Azure gpt-4o refuses a reasoning effort", RulesOpenAI, "gpt-4o", nil, contract.ThinkingLow, nil, []string{"Thinking"}},
		{"compatible: max_tokens", RulesCompatible, "o3", &cold, contract.ThinkingLow,
			map[string]any{"temperature": 0.2, "max_tokens": 100.0, "reasoning_effort": "low"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var got map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var body map[string]any
				if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
					t.Error(err)
				}
				mu.Lock()
				got = map[string]any{}
				for _, k := range []string{"temperature", "max_tokens", "max_completion_tokens", "reasoning_effort"} {
					if v, ok := body[k]; ok {
						got[k] = v
					}
				}
				mu.Unlock()
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte("data: " + hiFrame + "\n\ndata: [DONE]\n\n"))
			}))
			defer srv.Close()
			p := New(endpoint.BaseURL(srv.URL+"/openai/v1/"), endpoint.HTTPClient(srv.Client())).WithRules(tt.rules)
			req := basicRequest()
			req.Model, req.Thinking, req.MaxOutputTokens = tt.model, tt.thinking, 100
			req.Sampling = contract.Sampling{Temperature: tt.temperature}
			_, err := transcripttest.Collect(context.Background(), p, req)
			if (err != nil) != (tt.sent == nil) {
				t.Fatalf("sending: %v", err)
			}
			var fields []string
			for _, f := range p.CheckConfig(contract.AgentConfig{Model: req.Model, Thinking: req.Thinking, Sampling: req.Sampling}) {
				fields = append(fields, f.Field)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.sent, got); diff != "" {
				t.Errorf("sent mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.fields, fields); diff != "" {
				t.Errorf("CheckConfig mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseRules: the names of the rules read back as the rules.
func TestParseRules(t *testing.T) {
	for _, r := range []Rules{RulesByHost, RulesOpenAI, RulesCompatible} {
		got, err := ParseRules(r.String())
		if err != nil || got != r {
			t.Errorf("ParseRules(%q) = %v, %v; want %v", r.String(), got, err, r)
		}
	}
	if _, err := ParseRules("azure"); err == nil {
		t.Error("ParseRules(\"azure\") took an unknown name")
	}
}

// TestUnknownRulesAreRefused: rules none of the known ones (a Rules
// converted from a bad number) follow no rules silently, even at
// OpenAI's own API, were they taken; instead CheckConfig refuses every
// agent and Stream every request, before sending, naming the rules.
func TestUnknownRulesAreRefused(t *testing.T) {
	for _, r := range []Rules{Rules(7), Rules(-1)} {
		t.Run(r.String(), func(t *testing.T) {
			var sent atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				sent.Add(1)
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte("data: " + hiFrame + "\n\ndata: [DONE]\n\n"))
			}))
			defer srv.Close()
			p := New(endpoint.BaseURL(srv.URL+"/v1/"), endpoint.HTTPClient(srv.Client())).WithRules(r)
			_, err := transcripttest.Collect(context.Background(), p, basicRequest())
			if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), r.String()) {
				t.Errorf("Stream: %v, want ErrBadRequest naming %v", err, r)
			}
			if n := sent.Load(); n != 0 {
				t.Errorf("%d requests sent under unknown rules, want none", n)
			}
			atOpenAI := New(endpoint.BaseURL(DefaultBaseURL)).WithRules(r)
			bad := atOpenAI.CheckConfig(contract.AgentConfig{Model: "gpt-4o"})
			if len(bad) != 1 || bad[0].Field != "Model" || !strings.Contains(bad[0].Reason, r.String()) {
				t.Errorf("CheckConfig at %s = %v, want one error on Model naming %v", DefaultBaseURL, bad, r)
			}
		})
	}
}
