package wire

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

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

// A message posted again under its id with another text (the AI SDK
// Chat's sendMessage with a messageId edits a message so) is not a
// retry: it runs, where it was given the first text's run.
func TestAnEditedMessageRuns(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			s := newRepostServer(t, proto)
			if first := s.post(s.body([2]string{"m1", "hi"})); first.Code != http.StatusOK || first.Text != "reply to hi" {
				t.Fatalf("first post: %+v", first)
			}
			s.restart()
			edited := s.post(s.body([2]string{"m1", "hello"}))
			if edited.Code != http.StatusOK || edited.Text != "reply to hello" {
				t.Errorf("edited message: %+v, want a new run's reply", edited)
			}
			if n := s.calls.Load(); n != 2 {
				t.Errorf("%d model calls, want 2", n)
			}
			if diff := cmp.Diff([]string{"hi", "hello"}, s.userTexts()); diff != "" {
				t.Errorf("user messages mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(edited, s.post(s.body([2]string{"m1", "hello"}))); diff != "" {
				t.Errorf("edited message posted again: answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
