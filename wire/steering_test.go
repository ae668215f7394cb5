package wire

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/aisdk"
)

// POST .../{thread}/steer hands a message to the run in flight while the
// client's stream stays open: that stream shows the run take the message
// and goes on to the run's end; the model gets the message once. It
// streams nothing itself.
func TestSteerRouteSteersTheOpenStream(t *testing.T) {
	gate := make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: weatherScript, toolGate: gate, steerable: true, handler: HandlerOptions{Token: readToken}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream := openChat(ctx, t, e, "t1", "weather in Paris?")
	defer stream.Body.Close()
	waitPhase(t, e.h, "t1", contract.PhaseAwaitingTools)

	code, _, body := request(t, e, http.MethodPost, "/api/chat/t1/steer", `{"text":"use <i>celsius</i>"}`, true, "")
	if code != http.StatusAccepted || body != "" {
		t.Fatalf("steer: %d %q, want 202 and no body", code, body)
	}
	close(gate)
	raw, err := io.ReadAll(stream.Body)
	if err != nil {
		t.Fatal(err)
	}
	types, chunks := readUI(t, strings.NewReader(string(raw)))
	var steered []any
	var text strings.Builder
	for _, c := range chunks {
		switch c.Type {
		case aisdk.DataSteeringApplied:
			steered = append(steered, c.Data)
		case aisdk.TextDelta:
			text.WriteString(c.Delta)
		}
	}
	if diff := cmp.Diff([]any{map[string]any{"text": "use <i>celsius</i>"}}, steered); diff != "" {
		t.Errorf("the open stream's steering parts (-want +got):\n%s", diff)
	}
	if types[len(types)-1] != "[DONE]" || !strings.HasSuffix(text.String(), "It is 18C in Paris.") {
		t.Errorf("the open stream did not go on to the run's end: %v", types)
	}
	var said []string
	for _, turn := range e.agent("t1").Snapshot().History.Turns() {
		if turn.Role == contract.RoleUser {
			said = append(said, turn.Text())
		}
	}
	if diff := cmp.Diff([]string{"weather in Paris?", "use <i>celsius</i>"}, said); diff != "" {
		t.Errorf("the run's user turns (-want +got):\n%s", diff)
	}
}

// What a steer request is answered when it steers nothing.
func TestSteerRouteRefusals(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, steerable: true, handler: HandlerOptions{Token: readToken, MaxBody: 1 << 10, AllowedOrigins: []string{"https://app.example"}}})
	chatTo(t, e, "t1", "weather in Paris?")
	seq := e.agent("t1").Snapshot().Seq
	checkRefusals(t, e, http.MethodPost, []refusal{
		{"no token", "/api/chat/t1/steer", `{"text":"hi"}`, false, "", http.StatusUnauthorized, "bearer token"},
		{"foreign origin", "/api/chat/t1/steer", `{"text":"hi"}`, true, "https://evil.example", http.StatusForbidden, "not allowed"},
		{"no run in flight", "/api/chat/t1/steer", `{"text":"hi"}`, true, "", http.StatusConflict, "no run in flight"},
		{"bad body", "/api/chat/t1/steer", `{"text":`, true, "", http.StatusBadRequest, "steer body"},
		{"not an object", "/api/chat/t1/steer", `["hi"]`, true, "", http.StatusBadRequest, "steer body"},
		{"no text", "/api/chat/t1/steer", `{}`, true, "", http.StatusBadRequest, "text is empty"},
		{"blank text", "/api/chat/t1/steer", `{"text":" \n"}`, true, "", http.StatusBadRequest, "text is empty"},
		{"body too large", "/api/chat/t1/steer", `{"text":"` + strings.Repeat("a", 2<<10) + `"}`, true, "", http.StatusRequestEntityTooLarge, "body over"},
		{"unknown thread", "/api/chat/forbidden-1/steer", `{"text":"hi"}`, true, "", http.StatusNotFound, "unknown thread"},
		{"empty thread id", "/api/chat//steer", `{"text":"hi"}`, true, "", http.StatusBadRequest, "bad thread id"},
		{"control character", "/api/chat/t%0A1/steer", `{"text":"hi"}`, true, "", http.StatusBadRequest, "control character"},
	})
	if got := e.agent("t1").Snapshot(); got.Seq != seq || got.Phase != contract.PhaseSettled {
		t.Errorf("refused steers moved the thread to seq %d, %s; it was at %d, settled", got.Seq, got.Phase, seq)
	}
}
