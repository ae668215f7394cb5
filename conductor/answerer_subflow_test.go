package conductor_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// TestAnswererIsToldWhichRunAsks: the root's Answerer is asked its
// delegates' questions too. The run's own q1 and its child's q1 wait at
// once; each question names the run it came from by its subflow path,
// run and turn, as an approval request does, so an answer given later
// from the question alone (AnswerCall) reaches that run's call and no
// other.
func TestAnswererIsToldWhichRunAsks(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"q1", "ask_human", `{"question":"Own?"}`}, call{"c1", "delegate_asker", `{"task":"pick a city"}`}),
		"asker":  delegateOnce(call{"q1", "ask_human", `{"question":"Which city?"}`}),
	}
	var (
		mu  sync.Mutex
		qs  []conductor.QuestionRequest
		err = errors.New("answered later")
	)
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.People.Answerer = func(_ context.Context, q conductor.QuestionRequest) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		qs = append(qs, q)
		return "", err
	}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Tools: []contract.ToolDescriptor{{Name: "ask_human"}}, Delegates: []contract.Delegate{askerDelegate()}}
	a := newAgent(t, cfg, deps)
	done := submitAsync(a, "go")
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(qs) == 2 })
	mu.Lock()
	asked := append([]conductor.QuestionRequest(nil), qs...)
	mu.Unlock()
	paths := map[string][]string{}
	for _, q := range asked {
		paths[q.Question.Text] = q.Subflow
		if q.RunID == "" || q.Turn == 0 {
			t.Errorf("question %q names run %q turn %d, want the reply that asked it", q.Question.Text, q.RunID, q.Turn)
		}
		ans := conductor.CallAnswer{CallID: q.Call.ID, Answer: "re " + q.Question.Text, RunID: q.RunID, Turn: q.Turn}
		if err := a.AnswerCall(ctxT(t), q.Subflow, ans); err != nil {
			t.Fatalf("answering %q from its question: %v", q.Question.Text, err)
		}
	}
	if diff := cmp.Diff(map[string][]string{"Own?": nil, "Which city?": {"c1"}}, paths); diff != "" {
		t.Errorf("subflow paths of the questions mismatch (-want +got):\n%s", diff)
	}
	want := []string{"re Own?", "re Which city?"}
	if diff := cmp.Diff(want, settledContents(t, done)); diff != "" {
		t.Errorf("parent results mismatch (-want +got):\n%s", diff)
	}
}
