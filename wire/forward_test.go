package wire

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/google/go-cmp/cmp"
)

// pair is two handlers serving one store, as two processes serving one
// database do: the session lock lets one drive a thread, and Owner names
// the handler whose factory opened it.
type pair struct {
	t     testing.TB
	st    store.Store
	nodes [2]*pairNode
	mu    sync.Mutex
	owner map[string]*url.URL
	// lookup, when set, replaces the owner table.
	lookup func(thread string) *url.URL
}

type pairNode struct {
	h   *Handler
	srv *httptest.Server
	// forwarded counts requests that reached this node from the other.
	forwarded atomic.Int64
	// serving counts the requests this node is answering.
	serving atomic.Int64
}

func newPair(t testing.TB, newAgent func(st store.Store, id string) (*conductor.Agent, error)) *pair {
	return newPairWith(t, HandlerOptions{}, newAgent)
}

// newPairWith is newPair with opts for both handlers, ClientAnswers and
// Owner set.
func newPairWith(t testing.TB, opts HandlerOptions, newAgent func(st store.Store, id string) (*conductor.Agent, error)) *pair {
	p := &pair{t: t, st: store.NewMemory(), owner: map[string]*url.URL{}}
	opts.ClientAnswers, opts.Owner = true, p.ownerOf
	for i := range p.nodes {
		n := &pairNode{}
		n.srv = httptest.NewUnstartedServer(nil)
		base, _ := url.Parse("http://" + n.srv.Listener.Addr().String())
		n.h = NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
			a, err := newAgent(p.st, id)
			if err != nil {
				return nil, err
			}
			if _, err := p.st.Head(ctx, id); err == nil {
				if _, err := a.Reopen(ctx, id); err != nil {
					a.Close()
					return nil, err
				}
			}
			p.mu.Lock()
			p.owner[id] = base
			p.mu.Unlock()
			return humanRunner{AgentRunner(a), a}, nil
		}, opts)
		n.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.serving.Add(1)
			defer n.serving.Add(-1)
			if r.Header.Get(forwardedHeader) != "" {
				n.forwarded.Add(1)
			}
			n.h.ServeHTTP(w, r)
		})
		n.srv.Start()
		p.nodes[i] = n
	}
	t.Cleanup(func() {
		for _, n := range p.nodes {
			n.srv.Close()
			if err := n.h.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
	})
	return p
}

func (p *pair) ownerOf(_ context.Context, thread string) (*url.URL, error) {
	if p.lookup != nil {
		return p.lookup(thread), nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if u, ok := p.owner[thread]; ok {
		return u, nil
	}
	return nil, store.ErrNotFound
}

// startRun posts a run of thread to n, and returns once the run is
// recorded; the request ends with the test.
func (p *pair) startRun(t *testing.T, n *pairNode, thread string) {
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, n.srv.URL, strings.NewReader(runBody(thread, "hello")))
		req.Header.Set("Content-Type", "application/json")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitFor(t, func() bool {
		_, err := p.st.Head(t.Context(), thread)
		return err == nil
	})
}

// humanRunner takes a page's answers, as baton serve's runner does.
type humanRunner struct {
	Runner
	a *conductor.Agent
}

func (r humanRunner) Answer(ctx context.Context, callID, answer string) error {
	return r.a.Answer(ctx, callID, answer)
}

func (r humanRunner) Approve(ctx context.Context, callID string, d conductor.Decision) error {
	return r.a.Approve(ctx, callID, d)
}

func (r humanRunner) Abort(ctx context.Context, mode contract.AbortMode) error {
	return r.a.Abort(ctx, mode)
}

func texts(events []agui.Event) string {
	var b strings.Builder
	for _, ev := range events {
		if ev.Type == agui.TextMessageContent {
			b.WriteString(ev.Delta)
		}
	}
	return b.String()
}

// A stream asked of the handler that does not drive the thread is the
// stream of the run the owner drives, relayed: the same events, to the
// run's end, and no second driver.
func TestNonOwnerStreamsTheOwnersRun(t *testing.T) {
	gate := make(chan struct{})
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(gate, reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "from "},
			turn.Chunk{Kind: turn.ChunkText, Text: "the owner"},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}))}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	first := make(chan []sseFrame, 1)
	go func() {
		resp, err := http.Post(a.srv.URL, "application/json", strings.NewReader(runBody("t1", "hello")))
		if err != nil {
			t.Error(err)
			first <- nil
			return
		}
		defer resp.Body.Close()
		first <- readSSE(t, resp.Body)
	}()
	waitFor(t, func() bool {
		_, err := p.st.Head(t.Context(), "t1")
		return err == nil
	})
	req, _ := http.NewRequest(http.MethodGet, b.srv.URL+"?threadId=t1&lastEventId=0", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resume on the non-owner: %d", resp.StatusCode)
	}
	close(gate)
	second := readSSE(t, resp.Body)
	firstFrames := <-first
	var got, want []agui.Event
	for _, f := range second {
		got = append(got, f.Event)
	}
	for _, f := range firstFrames {
		want = append(want, f.Event)
	}
	if texts(got) != "from the owner" || texts(want) != "from the owner" {
		t.Errorf("texts: owner's stream %q, relayed %q", texts(want), texts(got))
	}
	if types := types(second); len(types) == 0 || types[len(types)-1] != string(agui.RunFinished) {
		t.Errorf("relayed stream %v, want it to end with RUN_FINISHED", types)
	}
	if n := a.forwarded.Load(); n != 1 {
		t.Errorf("%d requests forwarded to the owner, want 1", n)
	}
	recs, err := p.st.Records(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	if n := countKind(recs, contract.SigModelReplied); n != 1 {
		t.Errorf("%d model replies recorded, want the owner's one", n)
	}
}

// An approval posted to the handler that does not drive the thread
// reaches the owner and is applied once; posted again, it is refused, as
// the owner would refuse it.
func TestApprovalPostedToNonOwnerReachesTheOwner(t *testing.T) {
	var ran atomic.Int64
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(_ context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		ran.Add(1)
		return "deleted " + in.Path, nil
	}, dispatch.NeedsApproval())
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(del)
		if err != nil {
			return nil, err
		}
		return conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: deleter{}}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	if code, events := postAGUI(t, a.srv.URL, user); code != http.StatusOK || events[len(events)-1].Type != agui.RunFinished {
		t.Fatalf("first stream on the owner: %d %v", code, events)
	}
	approve := map[string]any{"id": "t1", "role": "tool", "toolCallId": "d1", "content": "yes"}
	code, events := postAGUI(t, b.srv.URL, user, approve)
	if code != http.StatusOK {
		t.Fatalf("approval on the non-owner: %d", code)
	}
	if diff := cmp.Diff("Result: deleted build", texts(events)); diff != "" {
		t.Errorf("stream after the approval mismatch (-want +got):\n%s", diff)
	}
	if code, _ := postAGUI(t, b.srv.URL, user, approve); code != http.StatusConflict {
		t.Errorf("the same approval again: %d, want 409", code)
	}
	if n := a.forwarded.Load(); n != 2 {
		t.Errorf("%d requests forwarded to the owner, want 2", n)
	}
	if n := ran.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want once", n)
	}
	recs, err := p.st.Records(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	if n := countKind(recs, contract.SigApprovalResolved); n != 1 {
		t.Errorf("%d approvals recorded, want 1", n)
	}
}

// A handler handed a request for a thread it does not drive answers 421
// and hands it on to no one, so two handlers that each name the other as
// the owner give up with 503 rather than pass the request back and forth.
func TestForwardedRequestIsNotForwardedAgain(t *testing.T) {
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(make(chan struct{}), reply())}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	p.startRun(t, a, "t1")
	self, _ := url.Parse(b.srv.URL)
	p.lookup = func(string) *url.URL { return self }
	resp, err := http.Get(b.srv.URL + "?threadId=t1&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a thread whose owner cannot be reached: %d, want 503", resp.StatusCode)
	}
	if n := b.forwarded.Load(); n != forwardTries {
		t.Errorf("%d forwarded requests, want one per try (%d)", n, forwardTries)
	}
}

func countKind(recs []contract.Record, kind contract.SignalKind) int {
	n := 0
	for _, r := range recs {
		if r.Signal.SignalKind() == kind {
			n++
		}
	}
	return n
}

// Open opens a thread here as a request would, but never hands it to
// another process: a thread driven elsewhere is refused with
// store.ErrLocked, a bad id with its error, and a free thread opens.
func TestOpenRefusesAThreadDrivenElsewhere(t *testing.T) {
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(make(chan struct{}), reply())}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	p.startRun(t, a, "t1")
	if err := b.h.Open(t.Context(), "t1"); !errors.Is(err, store.ErrLocked) {
		t.Errorf("Open of a thread driven elsewhere: %v, want store.ErrLocked", err)
	}
	if err := b.h.Open(t.Context(), strings.Repeat("x", 200)); err == nil {
		t.Error("Open of an over-long thread id succeeded")
	}
	if err := b.h.Open(t.Context(), "t2"); err != nil {
		t.Errorf("Open of a free thread: %v", err)
	}
	if n := a.forwarded.Load(); n != 0 {
		t.Errorf("Open forwarded %d requests", n)
	}
}
