package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// pageKey is the API key the failing model's server echoes in its error,
// as OpenAI's does with a wrong key.
const pageKey = "sk-page-secret-0123456789abcdef"

// failingOpenAI is an OpenAI-compatible server on loopback whose first
// chat completion fails with 401, naming the key it was sent, and whose
// later ones stream "Back again.".
func failingOpenAI(t *testing.T) *httptest.Server {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		if calls.Add(1) == 1 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s. See https://platform.example/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`, pageKey)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, delta := range []string{`{"role":"assistant","content":"Back "}`, `{"content":"again."}`} {
			fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta)
		}
		fmt.Fprint(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// pageFailure is what failure.mjs read off the page.
type pageFailure struct {
	User             []string `json:"user"`
	Assistant        []string `json:"assistant"`
	Error            string   `json:"error"`
	StatusAfterError string   `json:"statusAfterError"`
	ErrorAfterReload string   `json:"errorAfterReload"`
	ErrorAfter       string   `json:"errorAfter"`
	Page             string   `json:"page"`
	ConsoleErrors    []string `json:"consoleErrors"`
}

// TestServeChatPageShowsFailure: in a real headless Chromium, a run whose
// model call fails (an OpenAI-compatible server answering 401 with the
// key in its message) shows its error on the chat page without the
// model's URL or the key, and the same error once the page is reloaded;
// the next prompt typed on the reloaded page starts a new run on the
// thread, whose reply is shown.
func TestServeChatPageShowsFailure(t *testing.T) {
	skipShort(t, "starts a browser")
	isolate(t)
	harness, chromium := chromiumHarness(t, "failure.mjs")
	model := failingOpenAI(t)
	t.Setenv("OPENAI_API_KEY", pageKey)
	node := startNode(t, "--store", t.TempDir(), "--provider", "openai", "--base-url", model.URL+"/v1", "--model", "m",
		"--workspace", t.TempDir(), "--retries", "0")

	var got pageFailure
	runPage(t, harness, chromium, "http://"+node.addr+"/", &got)
	host := strings.TrimPrefix(model.URL, "http://")
	checks := []struct {
		what string
		ok   bool
	}{
		{"the failed run's error is shown and the chat is ready for more", got.Error != "" && got.StatusAfterError == "error"},
		{"the reloaded page shows the same error", got.ErrorAfterReload == got.Error},
		{"the error says the model refused the key", strings.Contains(got.Error, "401") || strings.Contains(strings.ToLower(got.Error), "auth")},
		{"the page shows neither the model's address nor the key", !strings.Contains(got.Page+got.Error, host) && !strings.Contains(got.Page+got.Error, "sk-page") && !strings.Contains(got.Page+got.Error, "0123456789abcdef")},
		{"both prompts are shown", slices.Equal(got.User, []string{"hello", "try again"})},
		{"the next prompt's run answered, and the error went away", slices.Contains(got.Assistant, "Back again.") && got.ErrorAfter == ""},
		{"no uncaught exception, console error or failed response", len(got.ConsoleErrors) == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: no; the page showed %+v", c.what, got)
		}
	}
}
