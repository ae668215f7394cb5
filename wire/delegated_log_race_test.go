package wire

import (
	"context"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestAChildsEventStoredAfterTheLogWasReadComesAfterThoseItHas: a thread
// is opened again while its delegate's child runs, so that its log holds
// the child's events from then on and the store those before. A client
// reconnects; between the moment its stream took the thread's log and
// the moment it read the child's session, the child went on: its newer
// events are in the store, and come after those the log already had.
// Before, they came before them, and the stream then dropped the log's
// as shown already: the client never got the child's second tool call.
func TestAChildsEventStoredAfterTheLogWasReadComesAfterThoseItHas(t *testing.T) {
	had, st := startAndDie(t, ProtocolAGUI, "", runBody("t1", "weather in Paris?"))
	again, release := make(chan struct{}), make(chan struct{})
	replies := []func(context.Context) ([]turn.Chunk, error){
		gated(again, reply(
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_2", Name: "get_weather"},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"city":"Lyon"}`},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})),
	}
	replies = append(replies, afterTheDeath(release)...)
	var armed atomic.Bool
	var h *Handler
	childIn := func(kind contract.EventKind) func(contract.RunEvent) bool {
		return func(ev contract.RunEvent) bool {
			return slices.Equal(ev.Subflow, []string{"call_d"}) && ev.Kind == kind
		}
	}
	srv := delegatingServerOf(t, st, ProtocolAGUI, &script{replies: replies}, func(a *conductor.Agent) Runner {
		late := lateReader{Runner: AgentRunner(a), de: a, release: release, logged: func() bool { return h.logHas("t1", childIn(contract.EvRunSettled)) }}
		return armedReader{lateReader: late, armed: &armed}
	})
	h = srv.Config.Handler.(*Handler)
	// Opens the thread: the child, picked up, goes on once again closes,
	// calls the weather tool a second time and waits on its model.
	resp, err := http.Get(srv.URL + "/t1/messages")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	close(again)
	waitFor(t, func() bool { return h.logHas("t1", childIn(contract.EvToolResult)) })
	armed.Store(true)
	resumed := reconnectFrom(t, srv.URL, had[len(had)-1].id, nil)
	want := slices.Concat(reopenedChild[:7], []string{
		"[call_d] turn_completed <nil> <nil>",
		"[call_d] tool_call call_2 <nil>",
		"[call_d] tool_started call_2 <nil>",
		"[call_d] tool_result call_2 <nil>",
	}, reopenedChild[6:])
	if diff := cmp.Diff(want, childLines(t, append(had, resumed...))); diff != "" {
		t.Errorf("child's events mismatch (-want +got):\n%s", diff)
	}
}

// armedReader is a lateReader once armed, and its runner's DelegatedEvents
// before.
type armedReader struct {
	lateReader
	armed *atomic.Bool
}

func (r armedReader) DelegatedEvents(ctx context.Context, session string) ([]contract.RunEvent, error) {
	if !r.armed.Load() {
		return r.de.DelegatedEvents(ctx, session)
	}
	return r.lateReader.DelegatedEvents(ctx, session)
}
