package wire

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestAThreadWithALongIDShowsItsChildAfterAReopen: a thread whose id is
// too long for its delegate's session to begin with it (ChildSession
// cuts it from the front) is opened again after it idled, and a client
// reconnecting to it is shown the child's work, as for any thread.
// Before, the child's session was refused as none of the thread's, and
// every request that read the thread's history failed.
func TestAThreadWithALongIDShowsItsChildAfterAReopen(t *testing.T) {
	e := startEnvWith(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: delegatingScript, cfg: delegatingConfig()},
		envOptions{handler: HandlerOptions{IdleTimeout: 10 * time.Millisecond}})
	thread := strings.Repeat("t", contract.MaxSessionID-len("/2"))
	resp := e.post(context.Background(), runBody(thread, "weather in Paris?"), nil)
	frames := readSSE(t, resp.Body)
	resp.Body.Close()
	want := subflowLines(frames)
	if len(want) == 0 {
		t.Fatal("the stream shows nothing of the delegated run")
	}
	waitFor(t, func() bool { return e.liveThreads() == 0 })
	if diff := cmp.Diff(want, subflowLines(append(frames[:1:1], e.getResume(thread, frames[0].ID)...))); diff != "" {
		t.Errorf("reconnected to the thread opened again: delegated events mismatch (-want +got):\n%s", diff)
	}
}
