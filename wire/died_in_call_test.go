package wire

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// streamsThenHangs is a provider whose one model call streams chunks and
// then never answers: the process dies in it.
type streamsThenHangs struct{ chunks []turn.Chunk }

func (p streamsThenHangs) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range p.chunks {
			if !yield(c, nil) {
				return
			}
		}
		<-ctx.Done()
		yield(turn.Chunk{}, ctx.Err())
	}
}

// plainServer serves, over st, agents without tools whose model plays
// model; a thread whose session is stored is opened again from it, its
// run in flight picked up.
func plainServer(t *testing.T, st store.Store, model turn.Provider, opts HandlerOptions) (*httptest.Server, *Handler) {
	t.Helper()
	return serveRunners(t, plainRunners(st, model), opts)
}

// plainRunners is plainServer's runner factory: agents of model over st.
func plainRunners(st store.Store, model turn.Provider) func(ctx context.Context, id string) (Runner, error) {
	return func(ctx context.Context, id string) (Runner, error) {
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
			Model: conductor.Model{Provider: model, MaxRetries: turn.NoRetries},
			Env:   conductor.Env{Store: st, SessionID: id, Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}},
		})
		if err != nil {
			return nil, err
		}
		if a, err = reopenStored(ctx, st, a, id); err != nil {
			return nil, err
		}
		return AgentRunner(a), nil
	}
}

// serveRunners serves a handler over newRunner until the test ends.
func serveRunners(t *testing.T, newRunner func(ctx context.Context, id string) (Runner, error), opts HandlerOptions) (*httptest.Server, *Handler) {
	t.Helper()
	h := NewRunnerHandler(newRunner, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return srv, h
}

// framesOf parses raw AG-UI SSE events.
func framesOf(t *testing.T, raw []sseData) []sseFrame {
	t.Helper()
	var out []sseFrame
	for _, f := range raw {
		var e agui.Event
		if err := json.Unmarshal([]byte(f.data), &e); err != nil {
			t.Fatalf("bad data %q: %v", f.data, err)
		}
		out = append(out, sseFrame{ID: f.id, Event: e})
	}
	return out
}

// TestReconnectAfterTheServerDiesInAModelCall: a server dies while its
// model streams a reply; the server that takes the thread on calls the
// model again, which answers with other text under the same Seq and
// delta numbers. A client that had part of the dead call's text and
// reconnects, with the SSE id it last got, before the new call streams,
// once the run ended, or once the thread was also closed and opened
// again from the store, is told to drop the dead call's text, which the
// session never held, and gets the new reply whole: none of it skipped
// as text the client already had, none glued onto the dead call's.
// Reconnecting again from every id the resumed stream gave ends the same.
func TestReconnectAfterTheServerDiesInAModelCall(t *testing.T) {
	const newText = "Bonjour, le monde."
	for _, when := range []string{"before the new call streams", "after the run", "after the thread reopens"} {
		t.Run(when, func(t *testing.T) {
			shared := store.NewMemory()
			st := &dyingStore{Store: shared}
			first, _ := plainServer(t, st, streamsThenHangs{chunks: []turn.Chunk{
				{Kind: turn.ChunkText, Text: "Hello "},
				{Kind: turn.ChunkText, Text: "world, "},
			}}, HandlerOptions{})
			resp := postTo(t, first.URL, runBody("t1", "hi"))
			n := 0
			had := readSSEUntil(t, resp.Body, func(f sseData) bool {
				if strings.Contains(f.data, agui.TextMessageContent) {
					n++
				}
				return n == 2
			})
			st.die()
			resp.Body.Close()
			first.Close()

			release := make(chan struct{})
			var opts HandlerOptions
			if when == "after the thread reopens" {
				opts.IdleTimeout = 10 * time.Millisecond
			}
			if when != "before the new call streams" {
				close(release)
			}
			again, h := plainServer(t, shared, &script{replies: []func(context.Context) ([]turn.Chunk, error){
				gated(release, reply(
					turn.Chunk{Kind: turn.ChunkText, Text: "Bon"},
					turn.Chunk{Kind: turn.ChunkText, Text: "jour, "},
					turn.Chunk{Kind: turn.ChunkText, Text: "le monde."},
					turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})),
			}}, opts)
			if when != "before the new call streams" {
				// The run is picked up and ends before the client is back.
				waitFor(t, func() bool {
					resp, err := http.Get(again.URL + "/t1/messages")
					if err != nil {
						t.Fatal(err)
					}
					defer resp.Body.Close()
					b, _ := io.ReadAll(resp.Body)
					return strings.Contains(string(b), `"phase":"settled"`)
				})
				if opts.IdleTimeout > 0 {
					waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.threads) == 0 })
				}
			}
			want := map[string]string{}
			check := func(what string, streams ...[]sseFrame) {
				t.Helper()
				c := newAGUIClient()
				c.fold(framesOf(t, had))
				for _, frames := range streams {
					c.fold(frames)
				}
				if len(c.faults) > 0 {
					t.Fatalf("%s: the client errors the run: %v", what, c.faults)
				}
				if len(want) == 0 {
					for id, text := range c.text {
						want[id] = text
					}
				}
				if diff := cmp.Diff(want, c.text); diff != "" {
					t.Errorf("%s: text mismatch (-want +got):\n%s", what, diff)
				}
				texts := slices.Sorted(maps.Values(c.text))
				if !slices.Equal(texts, []string{newText, "hi"}) {
					t.Errorf("%s: the client holds %q, want the user's message and %q, and none of the dead call's text", what, texts, newText)
				}
			}
			last := had[len(had)-1].id
			req, _ := http.NewRequest(http.MethodGet, again.URL+"?threadId=t1", nil)
			req.Header.Set("Last-Event-ID", last)
			var resumed []sseFrame
			if when == "before the new call streams" {
				resumed = framesOf(t, streamOf(t, req, release))
			} else {
				resumed = framesOf(t, streamOf(t, req, nil))
			}
			check("reconnected from "+last, resumed)
			for i, f := range resumed {
				if f.ID == "" {
					continue
				}
				if opts.IdleTimeout > 0 {
					waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.threads) == 0 })
				}
				req, _ := http.NewRequest(http.MethodGet, again.URL+"?threadId=t1", nil)
				req.Header.Set("Last-Event-ID", f.ID)
				check("reconnected again from "+f.ID, resumed[:i+1], framesOf(t, streamOf(t, req, nil)))
			}
		})
	}
}
