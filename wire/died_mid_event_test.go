package wire

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// flushRecorder is a response that keeps what was flushed at each
// flush: all a process that dies can have left its client, since what
// it handed the connection reaches the client and nothing else does.
type flushRecorder struct {
	header  http.Header
	pending bytes.Buffer
	flushed [][]byte
}

func (r *flushRecorder) Header() http.Header {
	if r.header == nil {
		r.header = http.Header{}
	}
	return r.header
}

func (r *flushRecorder) WriteHeader(int) {}

func (r *flushRecorder) Write(p []byte) (int, error) { return r.pending.Write(p) }

func (r *flushRecorder) Flush() {
	r.flushed = append(r.flushed, bytes.Clone(r.pending.Bytes()))
	r.pending.Reset()
}

// resumeRecorded resumes thread t1 from last on h and returns what the
// response flushed, one piece per flush.
func resumeRecorded(t *testing.T, h *Handler, last string) [][]byte {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), http.MethodGet, "http://127.0.0.1/?threadId=t1", nil)
	req.Header.Set("Last-Event-ID", last)
	rec := &flushRecorder{}
	h.ServeHTTP(rec, req)
	rec.Flush()
	return rec.flushed
}

// TestReconnectAfterTheServerDiesInsideAnEventsFrames: a client cut in
// a model call's reasoning reconnects once the run ended; the resumed
// stream sends the rest of the reply, many frames for the one
// turn_completed, under one SSE id, that of the last. Wherever the
// process serving it dies, the client reconnects with the newest id it
// got, and the official client ends with the stored conversation: no
// frame it took after that id is sent to it again (text shown twice).
func TestReconnectAfterTheServerDiesInsideAnEventsFrames(t *testing.T) {
	st := store.NewMemory()
	first, h := plainServer(t, st, &script{replies: []func(context.Context) ([]turn.Chunk, error){
		reply(
			turn.Chunk{Kind: turn.ChunkThinking, Text: "Let me "},
			turn.Chunk{Kind: turn.ChunkThinking, Text: "see."},
			turn.Chunk{Kind: turn.ChunkText, Text: "Hello "},
			turn.Chunk{Kind: turn.ChunkText, Text: "world."},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}}, HandlerOptions{})
	resp := postTo(t, first.URL, runBody("t1", "hi"))
	live := readSSE(t, resp.Body)
	resp.Body.Close()
	first.Close()
	h.Close()
	cut := 0
	for i, f := range live {
		if f.Event.Type == agui.ReasoningMessageContent {
			cut = i + 1
			break
		}
	}
	if cut == 0 || live[cut-1].ID == "" {
		t.Fatalf("no reasoning delta with an id in the live stream: %+v", live)
	}
	had := live[:cut]

	// The run ended: a handler opening the thread from the store serves
	// the client's reconnects.
	_, again := plainServer(t, st, &script{}, HandlerOptions{})
	pieces := resumeRecorded(t, again, had[cut-1].ID)
	want := []string{"user: hi", "reasoning: Let me see.", "assistant: Hello world."}
	user := []agui.Message{{ID: "u-hi", Role: "user", Content: "hi"}}
	var body []byte
	for i, p := range pieces {
		body = append(body, p...)
		got := readSSE(t, bytes.NewReader(body))
		last := had[cut-1].ID
		for _, f := range got {
			if f.ID != "" {
				last = f.ID
			}
		}
		var rest []sseFrame
		if i < len(pieces)-1 {
			rest = readSSE(t, bytes.NewReader(bytes.Join(resumeRecorded(t, again, last), nil)))
		}
		client := transcript(officialFold(t, user, had, got, rest))
		if diff := cmp.Diff(want, client); diff != "" {
			t.Errorf("died after %d of %d flushes (%q), resumed from %q: the client's messages mismatch (-want +got):\n%s",
				i+1, len(pieces), strings.TrimSpace(string(p)), last, diff)
		}
	}
}
