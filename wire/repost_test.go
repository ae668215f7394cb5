package wire

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// countingModel answers a user message with "reply to" its text, except
// "clean up", for which it calls delete_file, a tool that waits for a
// person's approval. calls counts its model calls, across restarts; the
// first failing of them fail.
type countingModel struct{ calls, failing *atomic.Int64 }

func (m countingModel) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	m.calls.Add(1)
	if m.failing.Add(-1) >= 0 {
		return func(yield func(turn.Chunk, error) bool) {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "down"})
		}
	}
	last, _ := req.History.Last()
	chunks := []turn.Chunk{{Kind: turn.ChunkText, Text: "reply to " + last.Text()}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	if last.Role == contract.RoleUser && last.Text() == "clean up" {
		chunks = []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, CallID: "d1", Name: "delete_file"},
			{Kind: turn.ChunkToolCallArgs, Text: `{"path":"build"}`},
			{Kind: turn.ChunkToolCallEnd},
			{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
		}
	}
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// repostServer serves proto over a file store in dir, which outlives the
// server: a second one over the same dir is the first one restarted.
type repostServer struct {
	t     *testing.T
	proto Protocol
	dir   string
	calls atomic.Int64
	// failing counts the model calls still to fail.
	failing atomic.Int64
	st      store.Store
	h       *Handler
	srv     *httptest.Server
	// retrieving, when set, gets a value as each submit asks for its
	// context, which it then waits for until gate closes.
	retrieving chan<- struct{}
	gate       <-chan struct{}
}

func newRepostServer(t *testing.T, proto Protocol) *repostServer {
	return newGatedRepostServer(t, proto, nil, nil)
}

// newGatedRepostServer is newRepostServer whose submits wait for gate
// while they ask for context, each saying so on retrieving.
func newGatedRepostServer(t *testing.T, proto Protocol, retrieving chan<- struct{}, gate <-chan struct{}) *repostServer {
	s := &repostServer{t: t, proto: proto, dir: t.TempDir(), retrieving: retrieving, gate: gate}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *repostServer) start() {
	st, err := store.Open(s.dir)
	if err != nil {
		s.t.Fatal(err)
	}
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(context.Context, struct {
		Path string `json:"path"`
	}) (string, error) {
		return "deleted", nil
	}, dispatch.NeedsApproval())
	s.st = st
	s.h = NewHandler(func(ctx context.Context, id string) (*conductor.Agent, error) {
		box, err := dispatch.NewToolBox(del)
		if err != nil {
			return nil, err
		}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{
			Model:  conductor.Model{Provider: countingModel{calls: &s.calls, failing: &s.failing}},
			Tools:  conductor.Tools{Box: box},
			People: conductor.People{Approver: conductor.ApproveLater},
			Env:    conductor.Env{Store: st, SessionID: id},
			Retrieval: conductor.Retrieval{Retriever: func(ctx context.Context, _ []contract.Turn) ([]contract.Turn, error) {
				if s.retrieving == nil {
					return nil, nil
				}
				s.retrieving <- struct{}{}
				select {
				case <-s.gate:
				case <-ctx.Done():
				}
				return nil, nil
			}},
		})
		if err != nil {
			return nil, err
		}
		if _, err := st.Head(ctx, id); err == nil {
			if _, err := a.Reopen(ctx, id); err != nil {
				a.Close()
				return nil, err
			}
		}
		return a, nil
	}, HandlerOptions{ClientAnswers: true, Protocol: s.proto})
	s.srv = httptest.NewServer(s.h)
}

func (s *repostServer) stop() {
	if s.srv == nil {
		return
	}
	s.srv.Close()
	if err := s.h.Close(); err != nil {
		s.t.Errorf("handler Close: %v", err)
	}
	if err := s.st.Close(); err != nil {
		s.t.Errorf("store Close: %v", err)
	}
	s.srv = nil
}

func (s *repostServer) restart() {
	s.stop()
	s.start()
}

// body is a request of thread t1 whose conversation is msgs, each an
// id and a text, a reply between each two.
func (s *repostServer) body(msgs ...[2]string) string {
	if s.proto == ProtocolAGUI {
		var out []map[string]any
		for i, m := range msgs {
			if i > 0 {
				out = append(out, map[string]any{"id": "a" + m[0], "role": "assistant", "content": "reply to " + msgs[i-1][1]})
			}
			out = append(out, map[string]any{"id": m[0], "role": "user", "content": m[1]})
		}
		return aguiBody("t1", out)
	}
	var out []any
	for i, m := range msgs {
		if i > 0 {
			out = append(out, map[string]any{"id": "a" + m[0], "role": "assistant", "parts": []any{map[string]any{"type": "text", "text": "reply to " + msgs[i-1][1]}}})
		}
		out = append(out, map[string]any{"id": m[0], "role": "user", "parts": []any{map[string]any{"type": "text", "text": m[1]}}})
	}
	b, _ := json.Marshal(map[string]any{"id": "t1", "trigger": "submit-message", "messages": out})
	return string(b)
}

// posted is what a client read of a post's answer: its status, and of a
// stream the run it showed, its text, whether it told of an error and
// whether it ended as a finished stream does.
type posted struct {
	Code   int
	RunID  string
	Text   string
	Failed bool
	Ended  bool
	Body   string
}

func (s *repostServer) post(body string) posted {
	s.t.Helper()
	resp, err := http.Post(s.srv.URL, "application/json", strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	p := posted{Code: resp.StatusCode}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		p.Body = strings.TrimSpace(string(b))
		return p
	}
	var text strings.Builder
	if s.proto == ProtocolAISDK {
		types, chunks := readUI(s.t, resp.Body)
		for _, c := range chunks {
			switch c.Type {
			case aisdk.Start:
				p.RunID = c.MessageID
			case aisdk.TextDelta:
				text.WriteString(c.Delta)
			case aisdk.Error:
				p.Failed = true
			}
		}
		p.Ended = len(types) >= 2 && types[len(types)-2] == aisdk.Finish && types[len(types)-1] == "[DONE]"
		p.Text = text.String()
		return p
	}
	frames := readSSE(s.t, resp.Body)
	for _, f := range frames {
		switch f.Event.Type {
		case agui.RunStarted:
			p.RunID = f.Event.RunID
		case agui.TextMessageContent:
			text.WriteString(f.Event.Delta)
		case agui.RunError:
			p.Failed = true
		}
	}
	p.Ended = len(frames) > 0 && frames[len(frames)-1].Event.Type == agui.RunFinished
	p.Text = text.String()
	return p
}

// userTexts are the user messages of thread t1's history, in order,
// without the notes the runtime adds (a failed run's).
func (s *repostServer) userTexts() []string {
	s.h.mu.Lock()
	th := s.h.threads["t1"]
	s.h.mu.Unlock()
	if th == nil {
		s.t.Fatal("thread t1 is not open")
	}
	var out []string
	for _, turn := range th.r.Snapshot().History.Turns() {
		if turn.Role == contract.RoleUser && turn.Mark != contract.MarkRunFailed {
			out = append(out, turn.Text())
		}
	}
	return out
}

// A message posted again once its run has ended (a client's retry after
// a dropped connection, a resubmitting browser, the AI SDK's Chat sending
// its last message again) is given the outcome of the run it started, as
// a stream, here and after a restart over the same store: the model is
// not called again and the thread holds the message once. It started a
// second run, the message twice in the thread. A message of the same
// text and a new id is a new message, and runs.
func TestARepostedMessageGetsItsRunsOutcome(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			s := newRepostServer(t, proto)
			first := s.post(s.body([2]string{"m1", "hi"}))
			if first.Code != http.StatusOK || !first.Ended || first.Text != "reply to hi" {
				t.Fatalf("first post: %+v", first)
			}
			for _, when := range []string{"at once", "after a restart"} {
				if when == "after a restart" {
					s.restart()
				}
				again := s.post(s.body([2]string{"m1", "hi"}))
				if diff := cmp.Diff(first, again); diff != "" {
					t.Errorf("posted again %s: answer mismatch (-want +got):\n%s", when, diff)
				}
				if n := s.calls.Load(); n != 1 {
					t.Errorf("posted again %s: %d model calls, want 1", when, n)
				}
				if diff := cmp.Diff([]string{"hi"}, s.userTexts()); diff != "" {
					t.Errorf("posted again %s: user messages mismatch (-want +got):\n%s", when, diff)
				}
			}
			next := s.post(s.body([2]string{"m1", "hi"}, [2]string{"m2", "hi"}))
			if next.Code != http.StatusOK || !next.Ended || next.Text != "reply to hi" || next.RunID == first.RunID {
				t.Errorf("a new message of the same text: %+v, want a new run's reply (first run %q)", next, first.RunID)
			}
			if n := s.calls.Load(); n != 2 {
				t.Errorf("a new message of the same text: %d model calls, want 2", n)
			}
			if diff := cmp.Diff([]string{"hi", "hi"}, s.userTexts()); diff != "" {
				t.Errorf("a new message of the same text: user messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A message posted again while the run it started is still in flight
// (here waiting for an approval) after the server restarted over the
// same store is given that run's stream: it neither steers the run nor
// reaches the model. The restarted server knew no message ids and took
// it as steering.
func TestARepostedMessageOfARunInFlightAfterARestart(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			s := newRepostServer(t, proto)
			first := s.post(s.body([2]string{"m1", "clean up"}))
			if first.Code != http.StatusOK || first.RunID == "" {
				t.Fatalf("first post: %+v", first)
			}
			s.restart()
			again := s.post(s.body([2]string{"m1", "clean up"}))
			if again.Code != http.StatusOK || again.RunID != first.RunID {
				t.Errorf("posted again: %+v, want the stream of run %q", again, first.RunID)
			}
			if n := s.calls.Load(); n != 1 {
				t.Errorf("posted again: %d model calls, want 1", n)
			}
			if p := phase(s.h, "t1"); p != contract.PhaseAwaitingApproval {
				t.Errorf("posted again: the run is %s, want still awaiting approval", p)
			}
			if diff := cmp.Diff([]string{"clean up"}, s.userTexts()); diff != "" {
				t.Errorf("posted again: user messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The official clients, whose first stream broke after its first text,
// post the same message again (the AG-UI client the same RunAgentInput,
// the AI SDK's Chat its regenerate()) and are left with the whole reply
// of the one run, without an error; the model was called once. The
// Chat's regenerate after a run that failed runs the message again.
func TestOfficialClientsPostingAMessageAgainGetItsRun(t *testing.T) {
	dir := aiSDKDir(t)
	for _, c := range []struct {
		proto   Protocol
		mode    string
		failing int64
		calls   int64
		users   []string
	}{
		{ProtocolAGUI, "agui", 0, 1, []string{"hi"}},
		{ProtocolAISDK, "ui", 0, 1, []string{"hi"}},
		{ProtocolAISDK, "ui-failed", 1, 2, []string{"hi", "hi"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			s := newRepostServer(t, c.proto)
			s.failing.Store(c.failing)
			var res struct {
				Messages []struct {
					Role    string `json:"role"`
					Content string `json:"content"`
					Text    string `json:"text"`
				} `json:"messages"`
				Errors []string `json:"errors"`
			}
			if err := json.Unmarshal(runNode(t, dir, nil, "again.mjs", s.srv.URL, "t1", c.mode), &res); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Messages {
				got = append(got, m.Role+": "+m.Content+m.Text)
			}
			if diff := cmp.Diff([]string{"user: hi", "assistant: reply to hi"}, got); diff != "" {
				t.Errorf("client's messages mismatch (-want +got):\n%s", diff)
			}
			if len(res.Errors) > 0 {
				t.Errorf("the client saw errors after posting again: %q", res.Errors)
			}
			if n := s.calls.Load(); n != c.calls {
				t.Errorf("%d model calls, want %d", n, c.calls)
			}
			if diff := cmp.Diff(c.users, s.userTexts()); diff != "" {
				t.Errorf("user messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// An AG-UI RunAgentInput whose message has no id is known by its runId:
// posted again, the same runId gets the first run's answer without a
// model call, where it ran the message again; a new runId runs it.
func TestAGUIRunIDKeysAMessageWithoutAnID(t *testing.T) {
	s := newRepostServer(t, ProtocolAGUI)
	body := func(runID string) string {
		b, _ := json.Marshal(map[string]any{"threadId": "t1", "runId": runID, "messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		return string(b)
	}
	first := s.post(body("r1"))
	if first.Code != http.StatusOK || !first.Ended {
		t.Fatalf("first post: %+v", first)
	}
	s.restart()
	if diff := cmp.Diff(first, s.post(body("r1"))); diff != "" {
		t.Errorf("the same runId posted again: answer mismatch (-want +got):\n%s", diff)
	}
	if n := s.calls.Load(); n != 1 {
		t.Errorf("the same runId posted again: %d model calls, want 1", n)
	}
	if next := s.post(body("r2")); next.Code != http.StatusOK || next.RunID == first.RunID {
		t.Errorf("a new runId: %+v, want a new run", next)
	}
	if diff := cmp.Diff([]string{"hi", "hi"}, s.userTexts()); diff != "" {
		t.Errorf("user messages mismatch (-want +got):\n%s", diff)
	}
}

// Two posts of one message at once (a double submit): the second, come
// while the first is still starting its run, waits for that run and gets
// its stream, and the model is called once. It was refused with 409.
func TestTwoPostsOfOneMessageAtOnceGetOneRun(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			retrieving, gate := make(chan struct{}, 1), make(chan struct{})
			s := newGatedRepostServer(t, proto, retrieving, gate)
			body := s.body([2]string{"m1", "hi"})
			first, second := make(chan posted, 1), make(chan posted, 1)
			go func() { first <- s.post(body) }()
			<-retrieving // the first post's run is starting
			go func() { second <- s.post(body) }()
			select {
			case p := <-second:
				close(gate)
				t.Fatalf("the second post, while the first starts its run: %+v, want it to wait for that run", p)
			case <-time.After(100 * time.Millisecond):
			}
			close(gate)
			a, b := <-first, <-second
			if a.Code != http.StatusOK || !a.Ended || a.Text != "reply to hi" {
				t.Errorf("first post: %+v", a)
			}
			if diff := cmp.Diff(a, b); diff != "" {
				t.Errorf("second post: answer mismatch (-first +second):\n%s", diff)
			}
			if n := s.calls.Load(); n != 1 {
				t.Errorf("%d model calls, want 1", n)
			}
			if diff := cmp.Diff([]string{"hi"}, s.userTexts()); diff != "" {
				t.Errorf("user messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A message whose run faulted (here its model call failed) runs again
// when it is posted again, after a restart too: that is what a client's
// retry of a failure asks for, the AI SDK Chat's regenerate after an
// error included, and the failed run's turns are out of the model's view.
// The thread holds the failed attempt and the new one.
func TestARepostedMessageOfAFailedRunRunsAgain(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			s := newRepostServer(t, proto)
			s.failing.Store(1)
			body := s.body([2]string{"m1", "hi"})
			if first := s.post(body); first.Code != http.StatusOK || !first.Failed {
				t.Fatalf("first post: %+v, want a stream that tells of an error", first)
			}
			s.restart()
			again := s.post(body)
			if again.Code != http.StatusOK || again.Failed || !again.Ended || again.Text != "reply to hi" {
				t.Errorf("posted again: %+v, want a new run's reply", again)
			}
			if diff := cmp.Diff(again, s.post(body)); diff != "" {
				t.Errorf("posted a third time: answer mismatch (-want +got):\n%s", diff)
			}
			if n := s.calls.Load(); n != 2 {
				t.Errorf("%d model calls, want 2", n)
			}
			if diff := cmp.Diff([]string{"hi", "hi"}, s.userTexts()); diff != "" {
				t.Errorf("user messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
