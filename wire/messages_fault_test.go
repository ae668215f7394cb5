package wire

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/aisdk"
)

// streamError returns the errorText of the error chunk in a UI message
// stream's body, or "" when it has none.
func streamError(t *testing.T, body string) string {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c aisdk.Chunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		if c.Type == aisdk.Error {
			return c.ErrorText
		}
	}
	return ""
}

// readMessagesError reads thread's conversation and returns its phase
// and the error it carries.
func readMessagesError(t *testing.T, e *env, thread string) (contract.Phase, string) {
	t.Helper()
	_, _, body := readMessages(t, e, thread)
	var got struct {
		Phase contract.Phase `json:"phase"`
		Error string         `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("messages %q: %v", body, err)
	}
	return got.Phase, got.Error
}

// A thread whose run faulted reads with the error its stream ended
// with, which a client coming back to it shows as the chat's error, as
// the stream made it; once a later run of it settles, it reads without.
func TestMessagesOfAFaultedRunCarryItsError(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: func() []func(context.Context) ([]turn.Chunk, error) {
		down := func(context.Context) ([]turn.Chunk, error) { return nil, errors.New("model is down") }
		return append([]func(context.Context) ([]turn.Chunk, error){down}, weatherScript()...)
	}, handler: HandlerOptions{Token: readToken}})

	code, _, body := request(t, e, http.MethodPost, "/api/chat?protocol=ai-sdk", chatBody("t1", "weather?"), true, "")
	live := streamError(t, body)
	if code != http.StatusOK || live == "" {
		t.Fatalf("chat: %d, want a stream that ends with an error chunk\n%s", code, body)
	}
	phase, got := readMessagesError(t, e, "t1")
	if diff := cmp.Diff([]string{string(contract.PhaseFaulted), live}, []string{string(phase), got}); diff != "" {
		t.Errorf("phase and error after the fault (-want +got):\n%s", diff)
	}

	chatTo(t, e, "t1", "and now?")
	phase, got = readMessagesError(t, e, "t1")
	if diff := cmp.Diff([]string{string(contract.PhaseSettled), ""}, []string{string(phase), got}); diff != "" {
		t.Errorf("phase and error after a settled run (-want +got):\n%s", diff)
	}
}
