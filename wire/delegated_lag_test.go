package wire

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// stalledOnce holds the thread's subscription on the first event it
// delivers until release closes.
type stalledOnce struct {
	Runner
	release <-chan struct{}
	once    *sync.Once
}

func (s stalledOnce) Subscribe(fn func(contract.RunEvent)) func() {
	return s.Runner.Subscribe(func(ev contract.RunEvent) {
		s.once.Do(func() { <-s.release })
		fn(ev)
	})
}

// newDelegatedLagServer serves threads that run delegatingScript. With
// stall, each thread's subscription has a queue of one and is held from
// the run's first event until the parent's last model call, that is
// while the whole of the delegate's child runs.
func newDelegatedLagServer(t *testing.T, stall bool) string {
	t.Helper()
	return newScriptedLagServer(t, stall, delegatingScript)
}

// newScriptedLagServer is newDelegatedLagServer for threads that run
// scripts, whose third reply is the child's last and fourth the
// parent's last. The weather for Lyon comes once the child's last reply
// was asked for.
func newScriptedLagServer(t *testing.T, stall bool, scripts func() []func(context.Context) ([]turn.Chunk, error)) string {
	t.Helper()
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
		{Name: "helper", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "get_weather"}}}},
	}}
	h := NewRunnerHandler(func(ctx context.Context, threadID string) (Runner, error) {
		release := make(chan struct{})
		replies := scripts()
		childLast, last := replies[2], replies[3]
		childAsked := make(chan struct{})
		replies[2] = func(ctx context.Context) ([]turn.Chunk, error) {
			close(childAsked)
			return childLast(ctx)
		}
		replies[3] = func(ctx context.Context) ([]turn.Chunk, error) {
			close(release)
			return last(ctx)
		}
		tool := dispatch.MustFunc("get_weather", "Weather for a city.", func(ctx context.Context, in weatherIn) (string, error) {
			if in.City == "Lyon" {
				select {
				case <-childAsked:
				case <-ctx.Done():
					return "", ctx.Err()
				}
			}
			return "18C, cloudy in " + in.City, nil
		})
		box, err := dispatch.NewToolBox(tool)
		if err != nil {
			return nil, err
		}
		env := conductor.Env{Store: store.NewMemory(), SessionID: threadID,
			Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Step: time.Millisecond}, IDs: &conductor.CountingIDs{}}
		if stall {
			env.EventBuffer = 1
		}
		a, err := conductor.CreateAgent(cfg, conductor.Deps{
			Model: conductor.Model{Provider: &script{replies: replies}, MaxRetries: turn.NoRetries},
			Tools: conductor.Tools{Box: box},
			Env:   env,
		})
		if err != nil {
			return nil, err
		}
		if !stall {
			return AgentRunner(a), nil
		}
		return stalledOnce{Runner: AgentRunner(a), release: release, once: &sync.Once{}}, nil
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		if err := h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return srv.URL
}

// delegatedView is what a client of one protocol shows of a delegated
// run, in order: the delegate's steps or parts, the child's events, and
// the results.
type delegatedView func(t *testing.T, url string) []string

func aguiDelegatedView(t *testing.T, url string) []string {
	resp := postTo(t, url, runBody("lag-d", "weather in Paris?"))
	defer resp.Body.Close()
	var out []string
	for _, f := range readSSE(t, resp.Body) {
		e := f.Event
		switch {
		case e.Type == agui.StepStarted, e.Type == agui.StepFinished:
			out = append(out, e.Type+" "+e.StepName)
		case e.Type == agui.Custom && e.Name == agui.CustomSubflow:
			v, _ := e.Value.(map[string]any)
			out = append(out, fmt.Sprintf("subflow %v %v %v", v["kind"], v["toolCallId"], v["text"]))
		case e.Type == agui.ToolCallResult:
			out = append(out, "result "+e.ToolCallID+": "+*e.Content)
		case e.Type == agui.RunFinished:
			out = append(out, e.Type)
		}
	}
	return out
}

func aisdkDelegatedView(t *testing.T, url string) []string {
	resp := postTo(t, url+"/api/chat?protocol=ai-sdk", chatBody("lag-d", "weather in Paris?"))
	defer resp.Body.Close()
	_, chunks := readUI(t, resp.Body)
	var out []string
	for _, c := range chunks {
		v, _ := c.Data.(map[string]any)
		switch c.Type {
		case aisdk.DataSubflow:
			out = append(out, fmt.Sprintf("part %s %v", c.ID, v["status"]))
		case aisdk.DataSubflowEvent:
			out = append(out, fmt.Sprintf("subflow %v %v %v", v["kind"], v["toolCallId"], v["text"]))
		case aisdk.ToolOutputAvail:
			out = append(out, fmt.Sprintf("output %s: %v", c.ToolCallID, *c.Output))
		case aisdk.Finish:
			out = append(out, c.Type)
		}
	}
	return out
}

func ndjsonDelegatedView(t *testing.T, url string) []string {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(runBody("lag-d", "weather in Paris?")))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []string
	text := map[string]string{}
	for ev, err := range ledger.ReadJSONL(io.Reader(resp.Body)) {
		if err != nil {
			t.Fatal(err)
		}
		path := strings.Join(ev.Subflow, "/")
		switch {
		case ev.Kind == contract.EvTextDelta:
			text[path] += ev.Text
		case ev.Delta == 0:
			id := ""
			if ev.Call != nil {
				id = ev.Call.ID
			}
			out = append(out, fmt.Sprintf("%s %s %s", path, ev.Kind, id))
		}
	}
	return append(out, fmt.Sprintf("text %q", text))
}

// A client whose thread's subscription lags while a delegate's child
// runs sees every event of the child, in the protocol's terms, where a
// client of a thread that kept up sees it: its tool call and result, its
// turns and its end, inside the delegate's step, each once.
func TestLaggingThreadShowsEveryDelegatedEvent(t *testing.T) {
	for name, view := range map[string]delegatedView{
		"ag-ui":  aguiDelegatedView,
		"ai-sdk": aisdkDelegatedView,
		"ndjson": ndjsonDelegatedView,
	} {
		t.Run(name, func(t *testing.T) {
			want := view(t, newDelegatedLagServer(t, false))
			got := view(t, newDelegatedLagServer(t, true))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("lagging thread's stream mismatch (-kept up +lagging):\n%s", diff)
			}
		})
	}
}
