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

// failingApprover fails, once on, to apply a decision with err, while
// its run stays waiting for it.
type failingApprover struct {
	steerHumanRunner
	on  *atomic.Bool
	err error
}

func (r failingApprover) Approve(ctx context.Context, callID string, d conductor.Decision) error {
	if r.on.Load() {
		return r.err
	}
	return r.steerHumanRunner.Approve(ctx, callID, d)
}

// TestAFailedAnswerSaysWhyRedacted: an approval the runner fails to
// record gets 500 with the cause, one the run refuses 409 with the
// reason, either with addresses and keys redacted, as a failed steer's.
// The store's failure went out as 409 with the store's address and key.
func TestAFailedAnswerSaysWhyRedacted(t *testing.T) {
	secret := errors.New(`append: Post "https://db.internal/x?token=s3cret": connection refused`)
	cases := []struct {
		name string
		err  error
		code int
		want string
	}{
		{"rejected", fmt.Errorf("%w: call %q is not awaiting approval", conductor.ErrRejected, "d1"), http.StatusConflict, "is not awaiting approval"},
		{"store", contract.WrapError(contract.KindStore, secret, "persist decision"), http.StatusInternalServerError, "connection refused"},
		// An agent whose store failed refuses what comes after with the
		// store's error.
		{"failed agent", fmt.Errorf("%w: %s", conductor.ErrRejected, secret), http.StatusConflict, "connection refused"},
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
				return failingApprover{AgentRunner(a).(agentRunner), &on, tc.err}, nil
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
			user := map[string]any{"id": "m1", "role": "user", "content": "clean up"}
			if code, _ := post(aguiBody("t1", []map[string]any{user})); code != http.StatusOK {
				t.Fatalf("first post: %d", code)
			}
			if p := phase(h, "t1"); p != contract.PhaseAwaitingApproval {
				t.Fatalf("after the first stream the run is %s, want awaiting approval", p)
			}
			on.Store(true)
			answer := map[string]any{"id": "a1", "role": "tool", "toolCallId": "d1", "content": `{"approved":true}`}
			code, body := post(aguiBody("t1", []map[string]any{user, answer}))
			if code != tc.code || !strings.Contains(body, tc.want) {
				t.Errorf("answer: %d %q, want %d saying %q", code, body, tc.code, tc.want)
			}
			if strings.Contains(body, "s3cret") || strings.Contains(body, "db.internal") {
				t.Errorf("answer's error is not redacted: %q", body)
			}
		})
	}
}
