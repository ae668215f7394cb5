package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// heldGate is a gate a wrapped runner waits on, and release, which
// opens it once however often it is called. release also runs at the
// test's cleanup, should the test stop early: called before the server
// starts, it runs before the handler closes.
func heldGate(t *testing.T) (gate chan struct{}, release func()) {
	gate = make(chan struct{})
	var open sync.Once
	release = func() { open.Do(func() { close(gate) }) }
	t.Cleanup(release)
	return gate, release
}

// steerMissedRunner makes the runners of an agent steerMissed ones
// that say so on arrived and wait for gate.
func steerMissedRunner(arrived chan<- struct{}, gate <-chan struct{}) func(*conductor.Agent) Runner {
	return func(a *conductor.Agent) Runner {
		return steerMissed{agentRunner: agentRunner{a}, once: &sync.Once{}, arrived: arrived, gate: gate}
	}
}

// threadReturned is h's thread id and the channel that closes when the
// Submit of its current run returns.
func threadReturned(h *Handler, id string) (*thread, chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	th := h.threads[id]
	return th, th.returned
}

// nextReturned is the channel that closes when the Submit of th's
// current run returns.
func nextReturned(h *Handler, th *thread) chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return th.returned
}

// wantApprovalRequest posts body to url and fails the test unless the
// stream is a 200 that carries the approval request of call.
func wantApprovalRequest(t *testing.T, what, url, body, call string) {
	t.Helper()
	if code, b := post(t, url, body); code != http.StatusOK || !strings.Contains(b, call) {
		t.Fatalf("%s: %d, want the approval request of %s:\n%s", what, code, call, b)
	}
}

// wantNextRunAwaiting fails the test unless th's run is another than
// firstRun and waits for an approval.
func wantNextRunAwaiting(t *testing.T, th *thread, firstRun string) {
	t.Helper()
	if snap := th.r.Snapshot(); snap.RunID == firstRun || snap.Phase != contract.PhaseAwaitingApproval {
		t.Fatalf("the next run is %s in %s, want another than %s awaiting approval", snap.RunID, snap.Phase, firstRun)
	}
}

// answerOK waits for what came of a postLater and fails the test unless
// it is a 200; what names the post.
func answerOK(t *testing.T, what string, answer <-chan postAnswer) postAnswer {
	t.Helper()
	a := <-answer
	if a.err != nil || a.code != http.StatusOK {
		t.Fatalf("%s: %d %v:\n%s", what, a.code, a.err, a.body)
	}
	return a
}

// foldLines is what a client of proto rebuilds from a stream body, as
// uiFoldLines or aguiFoldLines read it.
func foldLines(t *testing.T, proto Protocol, dir, body string) []string {
	t.Helper()
	if proto == ProtocolAISDK {
		return uiFoldLines(t, dir, body)
	}
	return aguiFoldLines(t, body)
}

// wantSaidOnce fails the test unless th's history holds the user
// message text exactly once.
func wantSaidOnce(t *testing.T, th *thread, text string) {
	t.Helper()
	said := 0
	for _, turn := range th.r.Snapshot().History.Turns() {
		if turn.Role == contract.RoleUser && turn.Text() == text {
			said++
		}
	}
	if said != 1 {
		t.Errorf("the thread holds the message %d times, want once", said)
	}
}

// wantRedactedFailure fails the test unless a post's answer is code
// saying want, with no address or key of the store's in it.
func wantRedactedFailure(t *testing.T, what string, code int, body string, wantCode int, want string) {
	t.Helper()
	if code != wantCode || !strings.Contains(body, want) {
		t.Errorf("%s: %d %q, want %d saying %q", what, code, body, wantCode, want)
	}
	if strings.Contains(body, "s3cret") || strings.Contains(body, "db.internal") {
		t.Errorf("%s's error is not redacted: %q", what, body)
	}
}

// awaitingAfterFirst posts body, the first message of thread id, to
// h's server at url, and fails the test unless its run then waits for
// an approval.
func awaitingAfterFirst(t *testing.T, h *Handler, url, id, body string) {
	t.Helper()
	if code, _ := post(t, url, body); code != http.StatusOK {
		t.Fatalf("first post: %d", code)
	}
	if p := phase(h, id); p != contract.PhaseAwaitingApproval {
		t.Fatalf("after the first stream the run is %s, want awaiting approval", p)
	}
}

// userBody is the body of a client of proto that posts text as a user
// message on thread id.
func userBody(proto Protocol, id, text string) string {
	if proto == ProtocolAISDK {
		return chatBody(id, text)
	}
	return aguiBody(id, []map[string]any{{"id": "u-" + text, "role": "user", "content": text}})
}

// runFold gives the chunks of one UI message stream to the AI SDK's
// stream reader (fold.mjs in dir) and returns what it printed: the
// messages it rebuilt, as JSON.
func runFold(t *testing.T, dir string, chunks []json.RawMessage) []byte {
	t.Helper()
	in, err := json.Marshal([][]json.RawMessage{chunks})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "fold.mjs")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node fold.mjs: %v\n%s", err, stderr.String())
	}
	return out
}

// steerSignal closes steered once a steer was taken; a runner that
// embeds it passes what its Steer came to through took.
type steerSignal struct {
	steered chan struct{}
	once    *sync.Once
}

// took closes steered the first time err is nil, and returns err.
func (s steerSignal) took(err error) error {
	if err == nil {
		s.once.Do(func() { close(s.steered) })
	}
	return err
}

// holding passes each event on to fn, once release closes for an
// event held says to hold, as a busy machine's subscription may lag.
func holding(fn func(contract.RunEvent), release <-chan struct{}, held func(contract.RunEvent) bool) func(contract.RunEvent) {
	return func(ev contract.RunEvent) {
		if held(ev) {
			<-release
		}
		fn(ev)
	}
}
