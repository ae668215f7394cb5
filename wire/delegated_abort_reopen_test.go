package wire

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// nestedDelegatingConfig is a parent that delegates to "mid", which
// delegates to "leaf", which has the weather tool.
func nestedDelegatingConfig() contract.AgentConfig {
	leaf := contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "get_weather"}}}
	mid := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "leaf", Config: leaf}}}
	return contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "mid", Config: mid}}}
}

// nestedDelegatingScript is played by nestedDelegatingConfig's agents in
// turn: each calls the next down, the leaf the weather tool; then each
// answers up.
func nestedDelegatingScript() []func(context.Context) ([]turn.Chunk, error) {
	return []func(context.Context) ([]turn.Chunk, error){
		callsTool("call_p", "delegate_mid", `{"task":"weather"}`),
		callsTool("call_m", "delegate_leaf", `{"task":"weather"}`),
		callsTool("call_w", "get_weather", `{"city":"Paris"}`),
		says("18C, cloudy."),
		says("Leaf says 18C."),
		says("Paris: 18C."),
	}
}

// TestReconnectToAnAbortedRunOpenedAgainIsExact: a run is aborted while
// its delegate's delegate calls a tool; the thread idles and is opened
// again from the store. A client that reconnects from any id it was
// given is shown the rest of the children's events, their ends
// included, once, in order, as the live stream had them.
// Before, the history put the children's ends after the run's own: an
// aborted parent stamps its end before its children stamp theirs, though
// they are published first. A stream stopped at the run's end without
// them, and one resumed from the run's last id showed them again.
func TestReconnectToAnAbortedRunOpenedAgainIsExact(t *testing.T) {
	gate := make(chan struct{})
	t.Cleanup(func() { close(gate) })
	e := startEnvWith(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: nestedDelegatingScript, cfg: nestedDelegatingConfig(), toolGate: gate},
		envOptions{handler: HandlerOptions{IdleTimeout: 10 * time.Millisecond}})
	resp := e.post(context.Background(), runBody("t1", "weather?"), nil)
	body := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body <- b
	}()
	waitFor(t, func() bool {
		return e.h.logHas("t1", func(ev contract.RunEvent) bool { return len(ev.Subflow) == 2 && ev.Kind == contract.EvToolStarted })
	})
	if code, msg := abortRequestTo(t, e, "t1", "", false); code != http.StatusNoContent {
		t.Fatalf("abort: %d %q, want 204", code, msg)
	}
	frames := readSSE(t, strings.NewReader(string(<-body)))
	want := subflowLines(frames)
	last := ""
	for i, f := range frames {
		if f.ID != "" {
			last = f.ID
		}
		if last == "" {
			continue
		}
		waitFor(t, func() bool { return e.liveThreads() == 0 })
		got := subflowLines(append(frames[:i+1:i+1], e.getResume("t1", last)...))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("cut after frame %d (%s), reconnected from %s: delegated events mismatch (-want +got):\n%s", i, f.Event.Type, last, diff)
		}
	}
}
