package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// toServer carries every request to the replay server, whatever host it
// names, so that a provider keeps the base URL it was given.
type toServer struct {
	server *url.URL
	next   http.RoundTripper
}

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = t.server.Scheme, t.server.Host
	return t.next.RoundTrip(r)
}

// suiteAt is suite with the provider's base URL at base and its requests
// carried to the replay server: tests name any host, OpenAI's among them,
// and touch only loopback.
func suiteAt(base string) transcripttest.Suite {
	s := suite
	s.Dial = func(server string, c *http.Client) turn.Provider {
		u, err := url.Parse(server)
		if err != nil {
			panic(err)
		}
		return New(endpoint.BaseURL(base), endpoint.HTTPClient(&http.Client{Transport: toServer{server: u, next: c.Transport}}))
	}
	return s
}

// atOpenAI is the suite with the provider at OpenAI's own API, the one
// server whose model names say which options a model refuses.
var atOpenAI = suiteAt(DefaultBaseURL)

// completion is a whole completion, the reply to a request not streamed.
const completion = "### HTTP 200\nContent-Type: application/json\n\n" +
	`{"id":"c","object":"chat.completion","created":1,"model":"o3","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Hi."}}]}` + "\n"

// TestRulesOnlyAtOpenAI: a model's name says which options it refuses
// only on OpenAI's own API, api.openai.com and its regional hosts. Any
// other server (a local one, Azure OpenAI with its deployment names, a
// router, a proxy) names its models as it likes and takes the options, so
// "o3" there is sent temperature 0.2 as asked, streamed or not, and
// CheckConfig lets an agent asking for it be created. An empty base is
// the replay server's own loopback URL.
func TestRulesOnlyAtOpenAI(t *testing.T) {
	cold := 0.2
	sentAsAsked := map[string]any{"temperature": 0.2}
	tests := []struct {
		name, base string
		sent       map[string]any
		fields     []string
	}{
		{"OpenAI", DefaultBaseURL, nil, []string{"Sampling.Temperature"}},
		{"OpenAI, host in capitals with a port", "https://API.OpenAI.com:443/v1", nil, []string{"Sampling.Temperature"}},
		{"OpenAI, EU data residency", "https://eu.api.openai.com/v1", nil, []string{"Sampling.Temperature"}},
		{"loopback", "", sentAsAsked, nil},
		{"Ollama", "http://localhost:11434/v1", sentAsAsked, nil},
		{"Azure OpenAI", "https://example.openai.azure.com/openai/v1/", sentAsAsked, nil},
		{"OpenRouter", "https://openrouter.ai/api/v1", sentAsAsked, nil},
		{"a host named like OpenAI's", "https://api.openai.com.example.net/v1", sentAsAsked, nil},
	}
	type sent struct {
		Streamed, Completed map[string]any
		Fields              []string
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := suite
			if tt.base != "" {
				s = suiteAt(tt.base)
			}
			req := basicRequest()
			req.Model, req.Sampling = "o3", contract.Sampling{Temperature: &cold}
			stream, p := s.Serve(t, "text")
			_, streamErr := transcripttest.Collect(context.Background(), p, req)
			whole := transcripttest.Serve(t, []byte(completion))
			_, completeErr := s.Dial(whole.URL, whole.Client()).(*Provider).Complete(context.Background(), req)
			for _, err := range []error{streamErr, completeErr} {
				if (err != nil) != (tt.sent == nil) {
					t.Fatalf("sending: %v", err)
				}
			}
			got := sent{Streamed: temperatureSent(t, stream), Completed: temperatureSent(t, whole)}
			for _, f := range p.(turn.ConfigChecker).CheckConfig(contract.AgentConfig{Model: req.Model, Sampling: req.Sampling}) {
				got.Fields = append(got.Fields, f.Field)
			}
			if diff := cmp.Diff(sent{tt.sent, tt.sent, tt.fields}, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// temperatureSent is the temperature of the first request srv received,
// nil when it received none.
func temperatureSent(t *testing.T, srv *transcripttest.Server) map[string]any {
	t.Helper()
	if srv.Served() == 0 {
		return nil
	}
	var body map[string]any
	if err := json.Unmarshal(srv.Request(0), &body); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"temperature": body["temperature"]}
}
