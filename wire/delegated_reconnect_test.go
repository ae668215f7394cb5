package wire

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/wire/agui"
)

// subflowLines are a delegated run's CUSTOM events in frames, in order.
func subflowLines(frames []sseFrame) []string {
	var out []string
	for _, f := range frames {
		if e := f.Event; e.Type == agui.Custom && e.Name == agui.CustomSubflow {
			v, _ := e.Value.(map[string]any)
			out = append(out, fmt.Sprintf("%v %v %v %v", v["subflow"], v["kind"], v["toolCallId"], v["text"]))
		}
	}
	return out
}

// A client cut anywhere in a delegated run reconnects with the SSE id it
// last got and has every event of the child once, in order, as a client
// that never left: none it had sent again (a delegate's events carried
// no id, so the client's was the one before them), none missed. So has
// one cut again right after the resumed stream's RUN_STARTED.
func TestReconnectInsideADelegatedRunIsExact(t *testing.T) {
	e := newDelegatingEnv(t)
	resp := e.post(context.Background(), runBody("t-d", "weather in Paris?"), nil)
	frames := readSSE(t, resp.Body)
	resp.Body.Close()
	want := subflowLines(frames)
	if len(want) == 0 {
		t.Fatal("the uninterrupted stream shows nothing of the delegated run")
	}
	last := ""
	for i, f := range frames {
		if f.ID != "" {
			last = f.ID
		}
		if last == "" {
			continue
		}
		resumed := e.getResume("t-d", last)
		got := subflowLines(append(frames[:i+1:i+1], resumed...))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("cut after frame %d (%s), reconnected from %s: delegated events mismatch (-want +got):\n%s", i, f.Event.Type, last, diff)
		}
		if len(resumed) == 0 || resumed[0].Event.Type != agui.RunStarted {
			continue
		}
		again := append(frames[:i+1:i+1], resumed[0])
		got = subflowLines(append(again, e.getResume("t-d", resumed[0].ID)...))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("cut after frame %d (%s), reconnected from %s, then from %s: delegated events mismatch (-want +got):\n%s", i, f.Event.Type, last, resumed[0].ID, diff)
		}
	}
}
