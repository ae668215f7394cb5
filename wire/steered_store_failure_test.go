package wire

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

var errDiskGone = errors.New("disk gone")

// breakableStore refuses every append with err once broken is set.
type breakableStore struct {
	store.Store
	broken *atomic.Bool
	err    error
}

func (s breakableStore) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	if s.broken.Load() {
		return store.Hash{}, s.err
	}
	return s.Store.Append(ctx, id, recs...)
}

// breakableServer serves threads whose agents keep their sessions in st
// and whose model answers once release closes.
func breakableServer(t *testing.T, st breakableStore, release <-chan struct{}) (*Handler, *httptest.Server) {
	t.Helper()
	h := NewHandler(func(ctx context.Context, id string) (*conductor.Agent, error) {
		return conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: heldModel{release}}, Env: conductor.Env{Store: st, SessionID: id}})
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	return h, srv
}

// heldModel answers once release closes.
type heldModel struct{ release <-chan struct{} }

func (m heldModel) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		select {
		case <-m.release:
		case <-ctx.Done():
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		for _, c := range []turn.Chunk{{Kind: turn.ChunkText, Text: "ok"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}} {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// TestASteeredStreamEndsWhenTheStoreFails: a run that ends because the
// store refused its records publishes no end of its own. The stream of
// the message that steered it followed the thread's events only, and
// stayed open for good; it ends now, as the starting stream does, and
// the thread opens again from the store on the next request.
func TestASteeredStreamEndsWhenTheStoreFails(t *testing.T) {
	var broken atomic.Bool
	release := make(chan struct{})
	h, srv := breakableServer(t, breakableStore{store.NewMemory(), &broken, errDiskGone}, release)
	post := func(body string) <-chan int { return postInBackground(t, srv.URL, body) }
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s never happened", what)
			}
		}
	}
	msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }
	first := post(aguiBody("t1", []map[string]any{msg("m1", "one")}))
	waitFor("the run's model call", func() bool {
		p, ok := threadPhase(h, "t1")
		return ok && p == contract.PhaseAwaitingModel
	})
	steered := post(aguiBody("t1", []map[string]any{msg("m1", "one"), msg("m2", "two")}))
	waitFor("the steer", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return len(h.threads["t1"].r.Snapshot().Queued) > 0
	})
	broken.Store(true)
	close(release)
	for name, code := range map[string]<-chan int{"starting": first, "steered": steered} {
		select {
		case c := <-code:
			if c != http.StatusOK {
				t.Errorf("%s stream: %d", name, c)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the %s stream is still open after the run ended with the store's failure", name)
		}
	}
	broken.Store(false)
	if c := <-post(aguiBody("t1", []map[string]any{msg("m1", "one"), msg("m2", "two"), msg("m3", "three")})); c != http.StatusOK {
		t.Errorf("a message once the store works again: %d", c)
	}
}
