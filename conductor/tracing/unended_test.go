package tracing_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// unended keeps the spans started and not yet ended.
type unended struct {
	mu   sync.Mutex
	open map[trace.SpanID]string
}

func newUnended() *unended { return &unended{open: map[trace.SpanID]string{}} }

func (u *unended) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.open[s.SpanContext().SpanID()] = s.Name()
}

func (u *unended) OnEnd(s sdktrace.ReadOnlySpan) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.open, s.SpanContext().SpanID())
}

func (u *unended) Shutdown(context.Context) error   { return nil }
func (u *unended) ForceFlush(context.Context) error { return nil }

// names are the names of the spans still open, sorted.
func (u *unended) names() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := []string{}
	for _, n := range u.open {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// helperCfg is a parent with one delegate, helper.
var helperCfg = contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}

// awaitEvent returns a channel closed at agent's first event of kind at
// subflow depth.
func awaitEvent(agent *conductor.Agent, kind contract.EventKind, depth int) <-chan struct{} {
	seen := make(chan struct{})
	var once sync.Once
	agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == kind && len(ev.Subflow) == depth {
			once.Do(func() { close(seen) })
		}
	})
	return seen
}

func waitOrFail(ctx context.Context, t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-ctx.Done():
		t.Fatal(what)
	}
}

// TestLeftAndReopenedDelegateEndsEverySpan: a run left while its
// delegate's child waits on its model, then reopened by another agent the
// same tracer follows, ends every span it opened once it settles, the
// child's late events opening none that nothing would end.
func TestLeftAndReopenedDelegateEndsEverySpan(t *testing.T) {
	for i := range 10 {
		open := newUnended()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(open))
		tracer := tracing.New(tp, tracing.Options{})
		st := store.NewMemory()
		deps := func(replies ...scripted.Reply) conductor.Deps {
			return conductor.Deps{
				Model: conductor.Model{Provider: scripted.New(replies...)},
				Env:   conductor.Env{Store: st, SessionID: "s1", IDs: &conductor.CountingIDs{}},
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		first, err := conductor.CreateAgent(helperCfg, deps(
			scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"x"}`}}},
			scripted.Reply{Fail: &scripted.Failure{Hang: true}},
		))
		if err != nil {
			t.Fatal(err)
		}
		detachFirst := tracer.Attach(first)
		asking := awaitEvent(first, contract.EvTurnStarted, 1)
		go first.Submit(ctx, conductor.Text("hello"))
		waitOrFail(ctx, t, asking, "the child never called its model")
		if err := first.Leave(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{}, open.names()); diff != "" {
			t.Errorf("run %d: spans left open after Leave (-want +got):\n%s", i, diff)
		}
		second, err := conductor.CreateAgent(helperCfg, deps(scripted.Reply{Text: "helped"}, scripted.Reply{Text: "done"}))
		if err != nil {
			t.Fatal(err)
		}
		detachSecond := tracer.Attach(second)
		settled := awaitEvent(second, contract.EvRunSettled, 0)
		if _, err := second.Reopen(ctx, "s1"); err != nil {
			t.Fatal(err)
		}
		waitOrFail(ctx, t, settled, "the reopened run never settled")
		if err := second.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{}, open.names()); diff != "" {
			t.Errorf("run %d: spans left open after the reopened run settled (-want +got):\n%s", i, diff)
		}
		detachSecond()
		detachFirst()
		second.Close()
		cancel()
		tp.Shutdown(context.Background())
	}
}

// TestAbortedDelegateEndsEverySpan: a run aborted while its delegate's
// child waits on its model ends every span it opened; the child's events
// come before its parent's end, so none opens a span after it.
func TestAbortedDelegateEndsEverySpan(t *testing.T) {
	for _, mode := range []contract.AbortMode{contract.AbortNow} {
		for i := range 10 {
			open := newUnended()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(open))
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			agent, err := conductor.CreateAgent(helperCfg, conductor.Deps{
				Model: conductor.Model{Provider: scripted.New(
					scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"x"}`}}},
					scripted.Reply{Fail: &scripted.Failure{Hang: true}},
				)},
				Env: conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			detach := tracing.New(tp, tracing.Options{}).Attach(agent)
			asking := awaitEvent(agent, contract.EvTurnStarted, 1)
			faulted := awaitEvent(agent, contract.EvRunFaulted, 0)
			go agent.Submit(ctx, conductor.Text("hello"))
			waitOrFail(ctx, t, asking, "the child never called its model")
			if err := agent.Abort(ctx, mode); err != nil {
				t.Fatal(err)
			}
			waitOrFail(ctx, t, faulted, "the aborted run never faulted")
			if err := agent.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{}, open.names()); diff != "" {
				t.Errorf("%s %d: spans left open after the run faulted (-want +got):\n%s", mode, i, diff)
			}
			detach()
			agent.Close()
			cancel()
			tp.Shutdown(context.Background())
		}
	}
}

// TestResumedDelegateWithLongSessionEndsEverySpan: a delegate's child
// resumed first, whose session name cuts its parent's long id, opens its
// parent's span under the parent's own run, which its parent's end ends,
// rather than under a parent guessed from the cut name that nothing
// would end.
func TestResumedDelegateWithLongSessionEndsEverySpan(t *testing.T) {
	for _, session := range []string{"s1", strings.Repeat("long-session-", 6)} {
		t.Run(strconv.Itoa(len(session)), func(t *testing.T) {
			guarded := dispatch.MustFunc("guarded", "Needs a yes.", func(_ context.Context, in struct{}) (string, error) { return "ok", nil }, dispatch.NeedsApproval())
			cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "guarded"}}}}}}
			st := store.NewMemory()
			deps := func(replies ...scripted.Reply) conductor.Deps {
				return conductor.Deps{
					Model:  conductor.Model{Provider: scripted.New(replies...)},
					Tools:  conductor.Tools{Box: dispatch.MustToolBox(guarded)},
					People: conductor.People{Approver: conductor.ApproveLater},
					Env:    conductor.Env{Store: st, SessionID: session, IDs: &conductor.CountingIDs{}},
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			first, err := conductor.CreateAgent(cfg, deps(
				scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
				scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "guarded", Arguments: `{}`}}},
			))
			if err != nil {
				t.Fatal(err)
			}
			closeWhenAsked(t, first)

			open := newUnended()
			exp := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(open), sdktrace.WithSyncer(exp))
			defer tp.Shutdown(context.Background())
			second, err := conductor.CreateAgent(cfg, deps(scripted.Reply{Text: "helped"}, scripted.Reply{Text: "done"}))
			if err != nil {
				t.Fatal(err)
			}
			defer second.Close()
			detach := tracing.New(tp, tracing.Options{}).Attach(second)
			defer detach()
			settled := awaitEvent(second, contract.EvRunSettled, 0)
			if _, err := second.Reopen(ctx, session); err != nil {
				t.Fatal(err)
			}
			if err := second.Approve(ctx, "c1", conductor.Decision{Approved: true}); err != nil {
				t.Fatal(err)
			}
			waitOrFail(ctx, t, settled, "the resumed run never settled")
			if err := second.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{}, open.names()); diff != "" {
				t.Errorf("spans left open after the resumed run settled (-want +got):\n%s", diff)
			}
			want := []string{
				"- > invoke_agent baton",
				"invoke_agent baton > chat m",
				"invoke_agent baton > invoke_agent helper",
				"invoke_agent helper > chat",
				"invoke_agent helper > execute_tool guarded",
			}
			if diff := cmp.Diff(want, tree(exp.GetSpans())); diff != "" {
				t.Errorf("spans of the resumed run mismatch (-want +got):\n%s", diff)
			}
			if root := attrs(find(t, exp.GetSpans(), "invoke_agent baton")); root["gen_ai.conversation.id"] != session || root["baton.run.id"] != "run_1" {
				t.Errorf("resumed parent's attributes %v", root)
			}
		})
	}
}
