package wire

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// chainedPost posts, on a server whose runner's first Steer is held by
// steered (see steerHeld, steerMissed), a decision and a message in one
// post whose decision lets its run end before the message can steer it,
// and returns what came of the post: its stream, of the type accept (""
// for AG-UI), holds the rest of that run, then the run the message
// started or steered. other, when set, lets another client's post start
// the next run before the steer returns.
func chainedPost(t *testing.T, steered func(arrived chan<- struct{}, gate <-chan struct{}) func(*conductor.Agent) Runner, other bool, accept string) (*flowServer, postAnswer) {
	t.Helper()
	arrived, gate := make(chan struct{}), make(chan struct{})
	var open sync.Once
	release := func() { open.Do(func() { close(gate) }) }
	t.Cleanup(release)
	s := cutStreams(t, startRunnerFlowServer(t, t.TempDir(), ProtocolAGUI, contract.AgentConfig{}, byHistory(cleaner), nil, steered(arrived, gate), deleteTool()))
	first, steer := ownApprovalBodies(ProtocolAGUI)
	if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "d1") {
		t.Fatalf("first stream: %d, want the approval request of d1:\n%s", code, b)
	}
	s.h.mu.Lock()
	returned := s.h.threads["c1"].returned
	s.h.mu.Unlock()
	answer := postLaterAccepting(s.srv.URL, steer, accept)
	<-arrived
	<-returned
	if other {
		if code, b := post(t, s.srv.URL, otherPostBody(ProtocolAGUI)); code != http.StatusOK || !strings.Contains(b, "d2") {
			t.Fatalf("other client's stream: %d, want the approval request of d2:\n%s", code, b)
		}
	}
	release()
	a := <-answer
	if a.err != nil || a.code != http.StatusOK {
		t.Fatalf("post: %d %v:\n%s", a.code, a.err, a.body)
	}
	return s, a
}

// TestAChainedStreamResumesThroughItsChain: a post whose decision lets
// its run end before its message can steer it streams the rest of that
// run, then the run its message started or steered (see decidedFirst,
// steeredAfter). A client cut anywhere in the first run's rest and
// resumed with the last id it got ends up, as the official AG-UI client
// folds the two streams, with what the whole stream gave: the first
// run's rest and the run of its own message, once each. The resumed
// stream stopped at the first run's end: the reply to the client's
// message was never shown.
func TestAChainedStreamResumesThroughItsChain(t *testing.T) {
	aguiClientDir(t)
	for _, c := range chainCases {
		t.Run(c.name, func(t *testing.T) {
			s, a := chainedPost(t, c.steered, c.other, "")
			resumesThroughChain(t, s, a.body)
		})
	}
}

// chainCases are the two ways a post's stream chains a second run.
var chainCases = []struct {
	name    string
	steered func(arrived chan<- struct{}, gate <-chan struct{}) func(*conductor.Agent) Runner
	other   bool
}{{
	// The message starts the next run.
	name: "started",
	steered: func(arrived chan<- struct{}, gate <-chan struct{}) func(*conductor.Agent) Runner {
		return func(a *conductor.Agent) Runner {
			return steerHeld{agentRunner: agentRunner{a}, once: &sync.Once{}, arrived: arrived, gate: gate}
		}
	},
}, {
	// Another client's post starts the next run, which the message
	// steers.
	name: "steered",
	steered: func(arrived chan<- struct{}, gate <-chan struct{}) func(*conductor.Agent) Runner {
		return func(a *conductor.Agent) Runner {
			return steerMissed{agentRunner: agentRunner{a}, once: &sync.Once{}, arrived: arrived, gate: gate}
		}
	},
	other: true,
}}

// resumesThroughChain cuts the chained stream body at each id of its
// first run's rest, resumes from there, and compares what the official
// client folds of the two with what it folds of the whole.
func resumesThroughChain(t *testing.T, s *flowServer, body string) {
	t.Helper()
	frames := readSSE(t, strings.NewReader(body))
	// The chained run's start: cuts before it fall in the first run's
	// rest.
	next := -1
	for i, f := range frames {
		if i > 0 && f.Event.Type == agui.RunStarted {
			next = i
			break
		}
	}
	if next < 0 {
		t.Fatalf("the post's stream chains no second run:\n%s", body)
	}
	want := messageLines(officialFold(t, nil, frames))
	chained := frames[next].Event.RunID
	cuts, twice := 0, 0
	for i, f := range frames[:next] {
		if f.ID == "" {
			continue
		}
		cuts++
		resumed := resumeChain(t, s, f.ID)
		got := messageLines(officialFold(t, nil, frames[:i+1], resumed))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("resumed from %q: what the client holds mismatch (-whole stream +cut and resumed):\n%s", f.ID, diff)
		}
		// Cut again in the resumed stream's part of the first run, past
		// its first event (which repeats the id resumed from): its ids
		// carry the chain on as well.
		again := -1
		for j, g := range resumed {
			if g.Event.Type == agui.RunStarted && g.Event.RunID == chained {
				break
			}
			if j > 0 && g.ID != "" {
				again = j
			}
		}
		if again < 0 {
			continue
		}
		twice++
		got = messageLines(officialFold(t, nil, frames[:i+1], resumed[:again+1], resumeChain(t, s, resumed[again].ID)))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("resumed from %q, then from %q: what the client holds mismatch (-whole stream +cut and resumed):\n%s", f.ID, resumed[again].ID, diff)
		}
	}
	if twice == 0 {
		t.Errorf("no resumed stream had an id to cut again at before the chained run")
	}
	if cuts < 2 {
		t.Fatalf("the first run's rest has %d ids to resume from, want at least 2:\n%s", cuts, body)
	}
}

// resumeChain resumes thread c1's stream from the SSE id last.
func resumeChain(t *testing.T, s *flowServer, last string) []sseFrame {
	t.Helper()
	code, body := send(t, http.MethodGet, s.srv.URL+"?threadId=c1", "", last)
	if code != http.StatusOK {
		t.Fatalf("resume from %q: %d\n%s", last, code, body)
	}
	return readSSE(t, strings.NewReader(body))
}

// messageLines are the tool results, texts and tool calls of messages,
// in order.
func messageLines(messages []agui.Message) []string {
	var lines []string
	for _, m := range messages {
		switch {
		case m.Role == "tool":
			lines = append(lines, "tool "+m.ToolCallID+": "+m.Content)
		case m.Role == "assistant":
			if m.Content != "" {
				lines = append(lines, "text: "+m.Content)
			}
			for _, c := range m.ToolCalls {
				lines = append(lines, "call "+c.ID)
			}
		}
	}
	return lines
}
