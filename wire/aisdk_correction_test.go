package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/aisdk"
)

// brokenAttempt is a model call that streams some text, then fails in a
// way the driver retries.
func brokenAttempt(context.Context) ([]turn.Chunk, error) {
	return []turn.Chunk{{Kind: turn.ChunkText, Text: "Howdy, par"}}, &turn.ProviderError{Failure: contract.FailServer, Message: "broken"}
}

// replyWithNoneCall says "Hello world." and calls a tool named None,
// which the runtime drops before it stores the turn.
var replyWithNoneCall = reply(
	turn.Chunk{Kind: turn.ChunkText, Text: "Hello "},
	turn.Chunk{Kind: turn.ChunkText, Text: "world."},
	turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "c0", Name: "None"},
	turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
	turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})

// finishCorrection is the baton field of a finish chunk's metadata.
type finishCorrection struct {
	Baton *struct {
		Corrected bool            `json:"corrected"`
		Message   json.RawMessage `json:"message"`
	} `json:"baton"`
}

// A live AI SDK stream whose stored turn is not what it streamed ends
// with a finish whose metadata says so and carries the stored message,
// which a page puts in place of the one the stream built (the protocol
// cannot take back a part). A stream whose turn is as streamed sends no
// correction.
func TestAISDKFinishCarriesStoredMessageWhenTurnDiverged(t *testing.T) {
	tests := []struct {
		name      string
		replies   []func(context.Context) ([]turn.Chunk, error)
		corrected bool
	}{
		{"as streamed", []func(context.Context) ([]turn.Chunk, error){says("Hello world.")}, false},
		{"retried after partial text", []func(context.Context) ([]turn.Chunk, error){brokenAttempt, says("Hello world.")}, true},
		{"dropped call", []func(context.Context) ([]turn.Chunk, error){replyWithNoneCall}, true},
		{"retried and dropped call", []func(context.Context) ([]turn.Chunk, error){brokenAttempt, replyWithNoneCall}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := retryingServer(t, &script{replies: tt.replies})
			resp := postTo(t, srv.URL+"/api/chat?protocol=ai-sdk", chatBody("t1", "hi"))
			_, chunks := readUI(t, resp.Body)
			resp.Body.Close()
			var finish *aisdk.Chunk
			for i := range chunks {
				if chunks[i].Type == aisdk.Finish {
					finish = &chunks[i]
				}
			}
			if finish == nil {
				t.Fatalf("the stream has no finish chunk: %v", chunks)
			}
			raw, err := json.Marshal(finish.MessageMetadata)
			if err != nil {
				t.Fatal(err)
			}
			var got finishCorrection
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if !tt.corrected {
				if got.Baton != nil {
					t.Errorf("a turn stored as streamed needs no correction, but the finish carries %s", raw)
				}
				return
			}
			if got.Baton == nil || !got.Baton.Corrected {
				t.Fatalf("the finish does not say the turn was corrected: %s", raw)
			}
			if bytes.Contains(got.Baton.Message, []byte("Howdy")) || bytes.Contains(got.Baton.Message, []byte("tool-None")) {
				t.Errorf("the correction's message holds what the session does not store: %s", got.Baton.Message)
			}
			want := storedMessages(t, srv.URL, "t1")
			var message any
			if err := json.Unmarshal(got.Baton.Message, &message); err != nil {
				t.Fatalf("the correction's message %q: %v", got.Baton.Message, err)
			}
			if diff := cmp.Diff(want[len(want)-1], message); diff != "" {
				t.Errorf("the correction's message is not the stored one (-stored +sent):\n%s", diff)
			}
		})
	}
}

// storedMessages reads a thread's messages as GET .../messages has them.
func storedMessages(t *testing.T, url, thread string) []any {
	t.Helper()
	resp, err := http.Get(url + "/" + thread + "/messages")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Messages []any `json:"messages"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) == 0 {
		t.Fatal("the thread has no stored messages")
	}
	return body.Messages
}

// The AI SDK's own Chat, applying the correction in onFinish as
// wire/aisdk's doc shows, ends with the message the session stores,
// whether the stream diverged from it or not.
func TestAISDKClientAppliesCorrection(t *testing.T) {
	dir := aiSDKDir(t)
	tests := []struct {
		name      string
		replies   []func(context.Context) ([]turn.Chunk, error)
		corrected bool
	}{
		{"as streamed", []func(context.Context) ([]turn.Chunk, error){says("Hello world.")}, false},
		{"retried and dropped call", []func(context.Context) ([]turn.Chunk, error){brokenAttempt, replyWithNoneCall}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := retryingServer(t, &script{replies: tt.replies})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "node", "ui.mjs", srv.URL+"/api/chat?protocol=ai-sdk", "t1", "correct")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("node ui.mjs correct: %v\nstderr:\n%s", err, stderr.String())
			}
			var res struct {
				Message   any      `json:"message"`
				Corrected bool     `json:"corrected"`
				Errors    []string `json:"errors"`
			}
			if err := json.Unmarshal(out, &res); err != nil {
				t.Fatalf("client output %q: %v", out, err)
			}
			if len(res.Errors) > 0 {
				t.Fatalf("client saw errors: %v", res.Errors)
			}
			if res.Corrected != tt.corrected {
				t.Errorf("the client applied a correction: %v, want %v", res.Corrected, tt.corrected)
			}
			want := storedMessages(t, srv.URL, "t1")
			got := res.Message
			if !tt.corrected {
				// The chat keeps the metadata of start and finish merged
				// and text parts' provider fields; compare what a person
				// reads.
				got, want[len(want)-1] = readable(got), readable(want[len(want)-1])
			}
			if diff := cmp.Diff(want[len(want)-1], got); diff != "" {
				t.Errorf("the chat's message is not the stored one (-stored +chat):\n%s", diff)
			}
		})
	}
}

// readable keeps of a UI message its id, role and its parts' types,
// texts and states.
func readable(m any) any {
	msg, _ := m.(map[string]any)
	var parts []any
	ps, _ := msg["parts"].([]any)
	for _, p := range ps {
		part, _ := p.(map[string]any)
		parts = append(parts, map[string]any{"type": part["type"], "text": part["text"], "state": part["state"]})
	}
	return map[string]any{"id": msg["id"], "role": msg["role"], "parts": parts}
}
