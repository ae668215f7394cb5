package wire

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

type steerHumanRunner interface {
	SteerRunner
	HumanRunner
}

// gatedRunner holds its store's reads, once on, until gate closes,
// saying on arrived that one waits.
type gatedRunner struct {
	steerHumanRunner
	on      *atomic.Bool
	arrived chan<- struct{}
	gate    <-chan struct{}
}

func (r gatedRunner) EventsSince(ctx context.Context, seq uint64) ([]contract.RunEvent, error) {
	if r.on.Load() {
		r.arrived <- struct{}{}
		<-r.gate
	}
	return r.steerHumanRunner.EventsSince(ctx, seq)
}

// TestConcurrentRetriesSteerOnce: a steering message posted twice at
// once (a client's retry while its first post is still being served)
// steers the run once; the model never sees it twice.
func TestConcurrentRetriesSteerOnce(t *testing.T) {
	said := make(chan []string, 16)
	var on atomic.Bool
	arrived, gate := make(chan struct{}), make(chan struct{})
	h, srv := approvingSteerServer(t, said, func(r steerHumanRunner) Runner { return gatedRunner{r, &on, arrived, gate} })
	post := func(body string) int {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Error(err)
			return 0
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }
	if code := post(aguiBody("t1", []map[string]any{msg("m1", "clean up")})); code != http.StatusOK {
		t.Fatalf("first post: %d", code)
	}
	if p := phase(h, "t1"); p != contract.PhaseAwaitingApproval {
		t.Fatalf("after the first stream the run is %s, want awaiting approval", p)
	}
	on.Store(true)
	steer := aguiBody("t1", []map[string]any{msg("m1", "clean up"), msg("m2", "keep the build")})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if code := post(steer); code != http.StatusOK {
				t.Errorf("steering post: %d", code)
			}
		})
	}
	<-arrived
	<-arrived
	on.Store(false)
	close(gate)
	wg.Wait()
	var last []string
	for len(said) > 0 {
		last = <-said
	}
	if diff := cmp.Diff([]string{"clean up", "keep the build"}, last); diff != "" {
		t.Errorf("user messages of the last model request mismatch (-want +got):\n%s", diff)
	}
}

// approvingSteerServer serves agents played by steerable whose
// delete_file call waits for the client's approval, each runner wrapped
// by wrap; said, when not nil, gets the user texts of every model
// request.
func approvingSteerServer(t *testing.T, said chan<- []string, wrap func(steerHumanRunner) Runner) (*Handler, *httptest.Server) {
	t.Helper()
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(context.Context, struct {
		Path string `json:"path"`
	}) (string, error) {
		return "", nil
	}, dispatch.NeedsApproval())
	st := store.NewMemory()
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		box, err := dispatch.NewToolBox(del)
		if err != nil {
			return nil, err
		}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: steerable{said: said}}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
		if err != nil {
			return nil, err
		}
		return wrap(AgentRunner(a).(agentRunner)), nil
	}, HandlerOptions{ClientAnswers: true})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	return h, srv
}
