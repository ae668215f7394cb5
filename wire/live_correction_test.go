package wire

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// retryingServer is plainServer over a memory store with one retry of a
// failed model call.
func retryingServer(t *testing.T, model turn.Provider) *httptest.Server {
	t.Helper()
	st := store.NewMemory()
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
			Model: conductor.Model{Provider: model, MaxRetries: 1, Backoff: time.Millisecond, MaxBackoff: time.Millisecond},
			Env:   conductor.Env{Store: st, SessionID: id, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
		})
		if err != nil {
			return nil, err
		}
		return AgentRunner(a), nil
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return srv
}

// transcript is a message list as a person reads it.
func transcript(msgs []agui.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Role+": "+m.Content)
		for _, c := range m.ToolCalls {
			out = append(out, "  call "+c.ID+" "+c.Function.Name+" "+c.Function.Arguments)
		}
	}
	return out
}

// A live stream whose stored turn is not what it streamed: an attempt
// of the model call broke after some text and the call was made again,
// and the reply's call named None, which the runtime drops before
// storing the turn. The official client following the stream, with no
// reconnect, ends with the stored conversation: not the broken
// attempt's text beside the reply, nor the dropped call. A stream whose
// turn is as streamed sends no MESSAGES_SNAPSHOT.
func TestLiveStreamCorrectsWhatTheStoredTurnDropped(t *testing.T) {
	tests := []struct {
		name     string
		replies  []func(context.Context) ([]turn.Chunk, error)
		want     []string
		snapshot bool
	}{
		{"as streamed", []func(context.Context) ([]turn.Chunk, error){says("Hello world.")},
			[]string{"user: hi", "assistant: Hello world."}, false},
		{"retried and mended", []func(context.Context) ([]turn.Chunk, error){
			func(context.Context) ([]turn.Chunk, error) {
				return []turn.Chunk{{Kind: turn.ChunkText, Text: "Howdy, par"}}, &turn.ProviderError{Failure: contract.FailServer, Message: "broken"}
			},
			reply(
				turn.Chunk{Kind: turn.ChunkText, Text: "Hello "},
				turn.Chunk{Kind: turn.ChunkText, Text: "world."},
				turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "c0", Name: "None"},
				turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
				turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
		}, []string{"user: hi", "assistant: Hello world."}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := retryingServer(t, &script{replies: tt.replies})
			resp := postTo(t, srv.URL, runBody("t1", "hi"))
			live := readSSE(t, resp.Body)
			resp.Body.Close()
			snapshot := false
			for _, f := range live {
				snapshot = snapshot || f.Event.Type == agui.MessagesSnapshot
			}
			if snapshot != tt.snapshot {
				t.Errorf("the stream sends a MESSAGES_SNAPSHOT: %v, want %v (%v)", snapshot, tt.snapshot, types(live))
			}
			got := transcript(officialFold(t, []agui.Message{{ID: "u-hi", Role: "user", Content: "hi"}}, live))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("the client's conversation is not the stored one (-stored +client):\n%s", diff)
			}
		})
	}
}
