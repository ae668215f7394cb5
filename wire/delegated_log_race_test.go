package wire

import (
	"context"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

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
	reconnectAsTheChildGoesOn(t, func(a *conductor.Agent, release chan struct{}, armed *atomic.Bool, h func() *Handler) Runner {
		late := lateReader{Runner: AgentRunner(a), de: a, release: release, logged: func() bool {
			return h().logHas("t1", childEvent(contract.EvRunSettled))
		}}
		return armedReader{lateReader: late, armed: armed}
	})
}

// TestARunsEndStoredWhileAReconnectStartsComesAfterItsChild: as above,
// but the child ends, and the run with it, while the stream reads the
// run's own events from the store, before it takes the log, which holds
// none of them yet. The run's end comes after the child's events.
// Before, the store was read after the log: the run's end, stored in
// between, came before the child's events the log had, and the stream
// stopped there without them.
func TestARunsEndStoredWhileAReconnectStartsComesAfterItsChild(t *testing.T) {
	reconnectAsTheChildGoesOn(t, func(a *conductor.Agent, release chan struct{}, armed *atomic.Bool, _ func() *Handler) Runner {
		return endingReader{Runner: AgentRunner(a), de: a, release: release, armed: armed}
	})
}

// childEvent tells the events of kind of the delegate call call_d's
// child.
func childEvent(kind contract.EventKind) func(contract.RunEvent) bool {
	return func(ev contract.RunEvent) bool {
		return slices.Equal(ev.Subflow, []string{"call_d"}) && ev.Kind == kind
	}
}

// reconnectAsTheChildGoesOn dies in the delegate's child of thread t1,
// opens the thread again on a server whose runners runner makes, lets
// the child call the weather tool once more, and then reconnects from
// the last id the client had, with armed set: release, which the
// runner closes, lets the child answer. The client must have every
// event of the child once, in order.
func reconnectAsTheChildGoesOn(t *testing.T, runner func(a *conductor.Agent, release chan struct{}, armed *atomic.Bool, h func() *Handler) Runner) {
	t.Helper()
	had, st := startAndDie(t, ProtocolAGUI, "", runBody("t1", "weather in Paris?"))
	again, release := make(chan struct{}), make(chan struct{})
	replies := append([]func(context.Context) ([]turn.Chunk, error){
		gated(again, callsTool("call_2", "get_weather", `{"city":"Lyon"}`)),
	}, afterTheDeath(release)...)
	var armed atomic.Bool
	var h *Handler
	srv := delegatingServerOf(t, st, ProtocolAGUI, &script{replies: replies}, func(a *conductor.Agent) Runner {
		return runner(a, release, &armed, func() *Handler { return h })
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
	waitFor(t, func() bool { return h.logHas("t1", childEvent(contract.EvToolResult)) })
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

// endingReader is a thread's runner that, once armed, lets the child's
// held model call answer and waits for the run's end to be stored before
// it reads the run's events.
type endingReader struct {
	Runner
	de      DelegatedEventer
	release chan struct{}
	armed   *atomic.Bool
}

func (r endingReader) DelegatedEvents(ctx context.Context, session string) ([]contract.RunEvent, error) {
	return r.de.DelegatedEvents(ctx, session)
}

func (r endingReader) EventsSince(ctx context.Context, after uint64) ([]contract.RunEvent, error) {
	if !r.armed.Load() {
		return r.Runner.EventsSince(ctx, after)
	}
	select {
	case <-r.release:
	default:
		close(r.release)
	}
	for {
		events, err := r.Runner.EventsSince(ctx, after)
		if err != nil || slices.ContainsFunc(events, func(ev contract.RunEvent) bool { return ev.Kind == contract.EvRunSettled && len(ev.Subflow) == 0 }) {
			return events, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
}
