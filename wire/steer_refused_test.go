package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// refusingRunner fails, once set, to steer with steerErr, or to read its
// events with eventsErr, while its run stays in flight.
type refusingRunner struct {
	steerHumanRunner
	on                  *atomic.Bool
	steerErr, eventsErr error
}

func (r refusingRunner) Steer(ctx context.Context, input []contract.Turn) error {
	if r.on.Load() && r.steerErr != nil {
		return r.steerErr
	}
	return r.steerHumanRunner.Steer(ctx, input)
}

func (r refusingRunner) EventsSince(ctx context.Context, seq uint64) ([]contract.RunEvent, error) {
	if r.on.Load() && r.eventsErr != nil {
		return nil, r.eventsErr
	}
	return r.steerHumanRunner.EventsSince(ctx, seq)
}

// TestAFailedSteerSaysWhy: a message posted while the run waits, whose
// steering the runner refuses or fails to record, or whose thread's
// events cannot be read, gets the real cause: 409 with the refusal's
// reason, 500 for a store's failure with addresses and keys redacted.
// It got 409 "already has a run in flight", as if nothing had failed.
func TestAFailedSteerSaysWhy(t *testing.T) {
	secret := errors.New(`append: Post "https://db.internal/x?token=s3cret": connection refused`)
	cases := []struct {
		name                string
		steerErr, eventsErr error
		code                int
		want                string
	}{
		{"rejected", fmt.Errorf("%w: steering is closed for this run", conductor.ErrRejected), nil, http.StatusConflict, "steering is closed for this run"},
		{"store", contract.WrapError(contract.KindStore, secret, "persist steered"), nil, http.StatusInternalServerError, "connection refused"},
		{"events", nil, contract.WrapError(contract.KindStore, secret, "read events"), http.StatusInternalServerError, "connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			del := dispatch.MustFunc("delete_file", "Delete a file.", func(context.Context, struct {
				Path string `json:"path"`
			}) (string, error) {
				return "", nil
			}, dispatch.NeedsApproval())
			var on atomic.Bool
			st := store.NewMemory()
			h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
				box, err := dispatch.NewToolBox(del)
				if err != nil {
					return nil, err
				}
				a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: steerable{said: make(chan []string, 16)}}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
				if err != nil {
					return nil, err
				}
				return refusingRunner{AgentRunner(a).(agentRunner), &on, tc.steerErr, tc.eventsErr}, nil
			}, HandlerOptions{ClientAnswers: true})
			srv := httptest.NewServer(h)
			t.Cleanup(func() { srv.Close(); h.Close() })
			post := func(body string) (int, string) {
				resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b)
			}
			msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }
			if code, _ := post(aguiBody("t1", []map[string]any{msg("m1", "clean up")})); code != http.StatusOK {
				t.Fatalf("first post: %d", code)
			}
			if p := phase(h, "t1"); p != contract.PhaseAwaitingApproval {
				t.Fatalf("after the first stream the run is %s, want awaiting approval", p)
			}
			on.Store(true)
			code, body := post(aguiBody("t1", []map[string]any{msg("m1", "clean up"), msg("m2", "keep the build")}))
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("steering post: %d %q, want %d saying %q", code, body, tc.code, tc.want)
			}
			if strings.Contains(body, "s3cret") || strings.Contains(body, "db.internal") {
				t.Errorf("steering post's error is not redacted: %q", body)
			}
		})
	}
}
