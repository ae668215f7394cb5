package wire

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
	"github.com/google/go-cmp/cmp"
)

// endHeldRunner is missingRunner whose subscriptions, once holdEnd is
// set, hold every end of a run of the thread's own until release closes,
// as a busy machine may: the thread's log still shows a run in flight
// after it ended and the next one started. steered closes once a steer
// is taken.
type endHeldRunner struct {
	missingRunner
	holdEnd *atomic.Bool
	release <-chan struct{}
	steerSignal
}

func (r endHeldRunner) Subscribe(fn func(contract.RunEvent)) func() {
	return r.missingRunner.Subscribe(holding(fn, r.release, func(ev contract.RunEvent) bool {
		return r.holdEnd.Load() && len(ev.Subflow) == 0 && (ev.Kind == contract.EvRunSettled || ev.Kind == contract.EvRunFaulted)
	}))
}

func (r endHeldRunner) Steer(ctx context.Context, input []contract.Turn) error {
	return r.took(r.missingRunner.Steer(ctx, input))
}

// TestAPostTakenByTheNextRunStreamsThatRun: a message whose steer found
// its run ended, and which the next run (another post's) took instead,
// gets a stream that follows that run to its end, once over, though the
// thread's log still showed the ended run in flight when the message
// steered the next. The stream took the ended run for its own and ended
// with it, without the reply to the message, over either protocol. The
// streams are read as the official clients read them.
func TestAPostTakenByTheNextRunStreamsThatRun(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			dir := aiSDKDir(t)
			var armed, holdEnd atomic.Bool
			arrived, gate, release, steered := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
			// The model says on said what each of its calls is given, and
			// waits until the test hears it: a run is then in flight for sure.
			said := make(chan []string)
			h, srv := approvingSteerServer(t, said, func(r steerHumanRunner) Runner {
				return endHeldRunner{missingRunner{r, &armed, arrived, gate}, &holdEnd, release, steerSignal{steered, &sync.Once{}}}
			})
			var let sync.Once
			letGo := func() { let.Do(func() { close(release) }) }
			// Before the handler closes, should the test stop early: the
			// thread's subscription waits for it.
			t.Cleanup(letGo)
			url := srv.URL + "?protocol=" + string(proto)
			post := func(id, text string, before ...map[string]any) <-chan postAnswer {
				if proto == ProtocolAISDK {
					return postLater(url, chatBody("t1", text))
				}
				msgs := append(before, map[string]any{"id": id, "role": "user", "content": text})
				return postLater(url, aguiBody("t1", msgs))
			}

			first := post("m1", "clean up")
			var th *thread
			waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); th = h.threads["t1"]; return th != nil })
			<-th.ready
			<-said
			// The first run waits for the client's approval: in flight.
			waitFor(t, func() bool { return th.r.Snapshot().Phase == contract.PhaseAwaitingApproval })
			if a := <-first; a.err != nil || a.code != http.StatusOK {
				t.Fatalf("first post: %d %v", a.code, a.err)
			}
			firstRun := th.r.Snapshot().RunID

			armed.Store(true)
			holdEnd.Store(true)
			second := post("m2", "keep the build", map[string]any{"id": "m1", "role": "user", "content": "clean up"})
			<-arrived
			// Between the second post's look and its steer, the first run
			// ends and returns, its end held from the thread's log, and
			// another post starts the next run, whose model call waits for
			// the test to hear it: that run stays in flight.
			h.mu.Lock()
			returned := th.returned
			h.mu.Unlock()
			if err := th.r.(endHeldRunner).steerHumanRunner.(Aborter).Abort(t.Context(), contract.AbortNow); err != nil {
				t.Fatal(err)
			}
			<-returned
			third := post("m3", "tidy the docs")
			waitFor(t, func() bool { s := th.r.Snapshot(); return s.RunID != firstRun && s.Phase.InFlight() })
			nextRun := th.r.Snapshot().RunID
			close(gate)
			<-steered
			letGo()
			done := make(chan struct{})
			defer close(done)
			go func() {
				for {
					select {
					case <-said:
					case <-done:
						return
					}
				}
			}()

			a := <-second
			if a.err != nil || a.code != http.StatusOK {
				t.Fatalf("second post: %d %v:\n%s", a.code, a.err, a.body)
			}
			if b := <-third; b.err != nil || b.code != http.StatusOK {
				t.Fatalf("third post: %d %v", b.code, b.err)
			}
			var got []string
			if proto == ProtocolAISDK {
				got = uiFoldTexts(t, dir, a.body)
			} else {
				frames := readSSE(t, strings.NewReader(a.body))
				if n := len(frames); n == 0 || frames[n-1].Event.Type != agui.RunFinished || frames[n-1].Event.RunID != nextRun {
					t.Errorf("second post's stream ends with %v, want RUN_FINISHED of the run that took its message, %q", types(frames), nextRun)
				}
				for _, m := range officialFold(t, nil, frames) {
					if m.Role == "assistant" && m.Content != "" {
						got = append(got, m.Content)
					}
				}
			}
			want := []string{"Understood: tidy the docs", "Understood: keep the build"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("assistant text the client rebuilt from the second post's stream mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// uiFoldTexts rebuilds the message of a UI message stream body with the
// AI SDK's stream reader (fold.mjs) and returns its text parts.
func uiFoldTexts(t *testing.T, dir, body string) []string {
	t.Helper()
	chunks := []json.RawMessage{}
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && data != "[DONE]" {
			chunks = append(chunks, json.RawMessage(data))
		}
	}
	out := runFold(t, dir, chunks)
	var messages []struct {
		Parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"parts"`
	}
	if err := json.Unmarshal(out, &messages); err != nil || len(messages) != 1 {
		t.Fatalf("fold.mjs printed %q: %v", out, err)
	}
	var texts []string
	for _, p := range messages[0].Parts {
		if p.Type == "text" {
			texts = append(texts, p.Text)
		}
	}
	return texts
}
