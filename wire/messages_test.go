package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/aisdk"
)

const readToken = "r3ad"

// request sends method to path on e, with the token when authorized
// and an Origin when origin is set, and returns the status, the
// Content-Type and the body.
func request(t *testing.T, e *env, method, path, body string, authorized bool, origin string) (int, string, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if authorized {
		req.Header.Set("Authorization", "Bearer "+readToken)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// sendAuthorized sends an authorized request to path on e; the caller
// closes the answer's body.
func sendAuthorized(ctx context.Context, t *testing.T, e *env, method, path, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+readToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// openChat posts a chat message to thread and returns its stream, open.
func openChat(ctx context.Context, t *testing.T, e *env, thread, text string) *http.Response {
	t.Helper()
	resp := sendAuthorized(ctx, t, e, http.MethodPost, "/api/chat?protocol=ai-sdk", chatBody(thread, text))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("chat %q: %d", text, resp.StatusCode)
	}
	return resp
}

// chatTo posts a chat message to thread and reads its stream to the end.
func chatTo(t *testing.T, e *env, thread, text string) {
	t.Helper()
	code, _, body := request(t, e, http.MethodPost, "/api/chat?protocol=ai-sdk", chatBody(thread, text), true, "")
	if code != http.StatusOK || !strings.Contains(body, "[DONE]") {
		t.Fatalf("chat %q: %d\n%s", text, code, body)
	}
}

// readMessages reads thread's conversation.
func readMessages(t *testing.T, e *env, thread string) ([]aisdk.UIMessage, contract.Phase, string) {
	t.Helper()
	code, ctype, body := request(t, e, http.MethodGet, "/api/chat/"+thread+"/messages", "", true, "")
	if code != http.StatusOK || ctype != "application/json" {
		t.Fatalf("GET messages: %d %s\n%s", code, ctype, body)
	}
	var got struct {
		Messages []aisdk.UIMessage `json:"messages"`
		Phase    contract.Phase    `json:"phase"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("messages %q: %v", body, err)
	}
	return got.Messages, got.Phase, body
}

// lines renders messages a line per text and tool part.
func lines(ms []aisdk.UIMessage) []string {
	var out []string
	for _, m := range ms {
		for _, p := range m.Parts {
			switch {
			case p.Type == "text":
				out = append(out, m.Role+": "+p.Text)
			case strings.HasPrefix(p.Type, "tool-"):
				line := m.Role + ": " + p.Type + " " + p.State
				if p.Output != nil {
					line += " " + *p.Output
				}
				out = append(out, line)
			}
		}
	}
	return out
}

// GET .../{thread}/messages reads every run of a thread, as the AI SDK
// chat's messages, and changes nothing; markup in them stays escaped. A
// server started again on the store reads the same.
func TestMessagesReadTheWholeThread(t *testing.T) {
	st := store.NewMemory()
	e := newEnvWith(t, envOptions{scripts: func() []func(context.Context) ([]turn.Chunk, error) {
		return append(weatherScript(), weatherScript()...)
	}, store: st, handler: HandlerOptions{Token: readToken}})
	chatTo(t, e, "t1", "weather in <b>Paris</b>?")
	chatTo(t, e, "t1", "and again?")
	seq := e.agent("t1").Snapshot().Seq

	ms, phase, body := readMessages(t, e, "t1")
	run := []string{
		"assistant: Let me check.",
		"assistant: tool-get_weather output-available 18C, cloudy in Paris",
		"assistant: It is 18C in Paris.",
	}
	want := append(append([]string{"user: weather in <b>Paris</b>?"}, run...), append([]string{"user: and again?"}, run...)...)
	if diff := cmp.Diff(want, lines(ms)); diff != "" {
		t.Errorf("messages mismatch (-want +got):\n%s", diff)
	}
	if phase != contract.PhaseSettled {
		t.Errorf("phase %s, want settled", phase)
	}
	if strings.Contains(body, "<b>") {
		t.Errorf("the answer carries markup unescaped: %s", body)
	}
	if got := e.agent("t1").Snapshot().Seq; got != seq {
		t.Errorf("reading the thread moved it from seq %d to %d", seq, got)
	}
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}
	again := newEnvWith(t, envOptions{scripts: weatherScript, store: st, handler: HandlerOptions{Token: readToken}})
	ms, _, _ = readMessages(t, again, "t1")
	if diff := cmp.Diff(want, lines(ms)); diff != "" {
		t.Errorf("messages after a restart (-want +got):\n%s", diff)
	}
}

// The messages of a thread whose run is in flight end with the run's
// message so far, under the id the run's resumed stream starts, which a
// client's chat replaces it by.
func TestMessagesOfARunInFlight(t *testing.T) {
	gate := make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: weatherScript, toolGate: gate, handler: HandlerOptions{Token: readToken}})
	t.Cleanup(func() { close(gate) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer openChat(ctx, t, e, "t1", "weather in Paris?").Body.Close()
	waitPhase(t, e.h, "t1", contract.PhaseAwaitingTools)

	ms, phase, _ := readMessages(t, e, "t1")
	if !phase.InFlight() || len(ms) != 2 || ms[1].Role != "assistant" {
		t.Fatalf("phase %s, messages %v: want the run in flight and its two messages", phase, lines(ms))
	}
	if diff := cmp.Diff([]string{"user: weather in Paris?", "assistant: Let me check.", "assistant: tool-get_weather input-available"}, lines(ms)); diff != "" {
		t.Errorf("messages mismatch (-want +got):\n%s", diff)
	}
	resumed := sendAuthorized(ctx, t, e, http.MethodGet, "/api/chat/t1/stream?protocol=ai-sdk", "")
	defer resumed.Body.Close()
	first, err := bufio.NewReader(resumed.Body).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var start aisdk.Chunk
	if err := json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(first), "data: ")), &start); err != nil {
		t.Fatalf("resumed stream opens with %q: %v", first, err)
	}
	if start.Type != aisdk.Start || start.MessageID != ms[1].ID {
		t.Errorf("the resumed stream opens with %+v, want start of message %q", start, ms[1].ID)
	}
}

// refusal is a request a thread's route must refuse, and how.
type refusal struct {
	name, path, body string
	authorized       bool
	origin           string
	code             int
	msg              string
}

// checkRefusals sends each request with method and checks its refusal,
// whose message says nothing of the thread's runs.
func checkRefusals(t *testing.T, e *env, method string, refusals []refusal) {
	t.Helper()
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			code, _, msg := request(t, e, method, tc.path, tc.body, tc.authorized, tc.origin)
			if code != tc.code || !strings.Contains(msg, tc.msg) || strings.Contains(msg, "18C") {
				t.Errorf("got %d %q, want %d with %q and nothing of the thread", code, msg, tc.code, tc.msg)
			}
		})
	}
}

// What a request for a thread's messages is answered when it is refused.
func TestMessagesRefusals(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{Token: readToken, AllowedOrigins: []string{"https://app.example"}}})
	chatTo(t, e, "t1", "weather in Paris?")
	checkRefusals(t, e, http.MethodGet, []refusal{
		{"no token", "/api/chat/t1/messages", "", false, "", http.StatusUnauthorized, "bearer token"},
		{"foreign origin", "/api/chat/t1/messages", "", true, "https://evil.example", http.StatusForbidden, "not allowed"},
		{"a body", "/api/chat/t1/messages", "{}", true, "", http.StatusBadRequest, "carries no body"},
		{"unknown thread", "/api/chat/forbidden-1/messages", "", true, "", http.StatusNotFound, "unknown thread"},
		{"empty thread id", "/api/chat//messages", "", true, "", http.StatusBadRequest, "bad thread id"},
		{"not UTF-8", "/api/chat/%FF/messages", "", true, "", http.StatusBadRequest, "not UTF-8"},
		{"control character", "/api/chat/t%0A1/messages", "", true, "", http.StatusBadRequest, "control character"},
		{"long thread id", "/api/chat/" + strings.Repeat("t", 81) + "/messages", "", true, "", http.StatusBadRequest, "at most 80"},
	})
}
