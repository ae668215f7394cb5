package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var ignoreDuration = cmpopts.IgnoreFields(Outcome{}, "Duration")

func TestSchedulerFIFOUnderLimit(t *testing.T) {
	s := NewScheduler(Options{Limit: 2})
	defer closeScheduler(t, s)
	started := make(chan string, 8)
	release := make(chan struct{})
	tool := toolOf(t, "block", blockUntil(started, release))
	outs := newOutcomes(8)
	for i := range 5 {
		if err := s.Dispatch(context.Background(), Job{Call: call(fmt.Sprint(i)), Tool: tool, Done: outs.done}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	got = append(got, <-started, <-started)
	select {
	case id := <-started:
		t.Fatalf("call %s started beyond the limit", id)
	default:
	}
	for range 3 {
		release <- struct{}{}
		got = append(got, <-started)
	}
	close(release)
	for range 5 {
		outs.next(t)
	}
	// The first two start together, in either order; the rest in order.
	if got[0] > got[1] {
		got[0], got[1] = got[1], got[0]
	}
	if diff := cmp.Diff([]string{"0", "1", "2", "3", "4"}, got); diff != "" {
		t.Errorf("start order mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerSequentialRunsAlone(t *testing.T) {
	s := NewScheduler(Options{Limit: 4})
	defer closeScheduler(t, s)
	started := make(chan string, 8)
	release := make(chan struct{})
	par := toolOf(t, "par", blockUntil(started, release))
	seq := toolOf(t, "seq", blockUntil(started, release), Sequential())
	outs := newOutcomes(8)
	jobs := []Job{
		{Call: call("p1"), Tool: par}, {Call: call("s1"), Tool: seq},
		{Call: call("p2"), Tool: par}, {Call: call("p3"), Tool: par},
	}
	for _, j := range jobs {
		j.Done = outs.done
		if err := s.Dispatch(context.Background(), j); err != nil {
			t.Fatal(err)
		}
	}
	expectOnly := func(want string) {
		t.Helper()
		if got := <-started; got != want {
			t.Fatalf("started %s, want %s", got, want)
		}
		select {
		case id := <-started:
			t.Fatalf("call %s started beside %s", id, want)
		default:
		}
	}
	expectOnly("p1") // s1 waits for p1; p2 and p3 wait behind s1 (FIFO)
	release <- struct{}{}
	expectOnly("s1")
	release <- struct{}{}
	got := []string{<-started, <-started}
	close(release)
	for range 4 {
		outs.next(t)
	}
	if diff := cmp.Diff([]string{"p2", "p3"}, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerTimeouts(t *testing.T) {
	wait := func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		<-ctx.Done()
		return contract.ToolOutcome{}, ctx.Err()
	}
	tests := []struct {
		name string
		opts []Option
		want Outcome
	}{
		{"default", nil, Outcome{CallID: "c", TimedOut: true,
			Outcome: contract.ToolOutcome{Content: `tool "wait" timed out after 5ms`, IsError: true}}},
		{"descriptor", []Option{Timeout(2 * time.Millisecond)}, Outcome{CallID: "c", TimedOut: true,
			Outcome: contract.ToolOutcome{Content: `tool "wait" timed out after 2ms`, IsError: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScheduler(Options{DefaultTimeout: 5 * time.Millisecond})
			defer closeScheduler(t, s)
			outs := newOutcomes(1)
			if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: toolOf(t, "wait", wait, tt.opts...), Done: outs.done}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, outs.next(t), ignoreDuration); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSchedulerCancel(t *testing.T) {
	s := NewScheduler(Options{Limit: 1})
	defer closeScheduler(t, s)
	started := make(chan string, 4)
	tool := toolOf(t, "block", blockUntil(started, nil))
	outs := newOutcomes(4)
	for _, id := range []string{"running", "queued", "other"} {
		if err := s.Dispatch(context.Background(), Job{Call: call(id), Tool: tool, Done: outs.done}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	s.Cancel("queued")
	s.Cancel("unknown")
	want := Outcome{CallID: "queued", Cancelled: true, Outcome: contract.ToolOutcome{Content: `tool "block" cancelled`, IsError: true}}
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("queued mismatch (-want +got):\n%s", diff)
	}
	s.Cancel("running")
	want.CallID = "running"
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("running mismatch (-want +got):\n%s", diff)
	}
	if got := <-started; got != "other" {
		t.Fatalf("started %s, want other", got)
	}
	s.CancelAll()
	want.CallID = "other"
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("cancel all mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerContextCancelReachesEveryCall(t *testing.T) {
	s := NewScheduler(Options{Limit: 2})
	defer closeScheduler(t, s)
	started := make(chan string, 4)
	tool := toolOf(t, "block", blockUntil(started, nil))
	ctx, cancel := context.WithCancel(context.Background())
	outs := newOutcomes(4)
	for _, id := range []string{"a", "b", "c", "d"} {
		if err := s.Dispatch(ctx, Job{Call: call(id), Tool: tool, Done: outs.done}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	<-started
	cancel()
	got := map[string]bool{}
	for range 4 {
		o := outs.next(t)
		got[o.CallID] = o.Cancelled && o.Outcome.IsError && strings.Contains(o.Outcome.Content, "context canceled")
	}
	if diff := cmp.Diff(map[string]bool{"a": true, "b": true, "c": true, "d": true}, got); diff != "" {
		t.Errorf("cancelled mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerPanicBecomesErrorOutcome(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	s := NewScheduler(Options{Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil))})
	defer closeScheduler(t, s)
	boom := toolOf(t, "boom", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		panic("kaboom")
	})
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: boom, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	want := Outcome{CallID: "c", Panicked: true, Outcome: contract.ToolOutcome{Content: `tool "boom" panicked: kaboom`, IsError: true}}
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "goroutine") || !strings.Contains(logs.String(), "kaboom") {
		t.Errorf("log lacks the panic stack: %s", logs.String())
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestSchedulerOutputCap(t *testing.T) {
	huge := strings.Repeat("x", 50<<20)
	tests := []struct {
		name    string
		content string
		cap     int
		want    contract.ToolOutcome
	}{
		{"under", "hello", 64, contract.ToolOutcome{Content: "hello"}},
		{"exact", "hello", 5, contract.ToolOutcome{Content: "hello"}},
		{"over", strings.Repeat("y", 100), 60, contract.ToolOutcome{Content: "yyyyyyyyyyyyyyyyyy\n[output truncated: 18 of 100 bytes shown]", Truncated: true}},
		{"rune boundary", "x" + strings.Repeat("é", 50), 62, contract.ToolOutcome{Content: "xééééééééé\n[output truncated: 19 of 101 bytes shown]", Truncated: true}},
		{"cap under the marker", strings.Repeat("y", 100), 10, contract.ToolOutcome{Content: "yyyyyyyyyy", Truncated: true}},
		{"cap one byte under the marker", strings.Repeat("y", 100), 41, contract.ToolOutcome{Content: strings.Repeat("y", 41), Truncated: true}},
		{"cap inside the only character", "é", 1, contract.ToolOutcome{Truncated: true}},
		{"50MiB", huge, 1 << 20, contract.ToolOutcome{Content: huge[:1<<20-52] + "\n[output truncated: 1048524 of 52428800 bytes shown]", Truncated: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScheduler(Options{OutputCap: tt.cap})
			defer closeScheduler(t, s)
			outs := newOutcomes(1)
			if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: toolOf(t, "big", text(tt.content)), Done: outs.done}); err != nil {
				t.Fatal(err)
			}
			got := outs.next(t).Outcome
			if len(got.Content) > tt.cap {
				t.Errorf("content is %d bytes, cap %d", len(got.Content), tt.cap)
			}
			if got != tt.want { // cmp.Diff only on failure: the outputs are large
				t.Errorf("mismatch (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
		})
	}
}

// TestSchedulerToolIgnoringContext times out a tool that ignores its
// context. A call whose deadline passed before its worker began never
// starts the tool, so on a busy machine a round may not reach it: the
// timeout doubles until one does.
func TestSchedulerToolIgnoringContext(t *testing.T) {
	for timeout := time.Millisecond; !deafRound(t, timeout); timeout *= 2 {
		if timeout > time.Second {
			t.Fatal("the deaf tool never started before its timeout")
		}
	}
}

// deafRound runs a tool that ignores its context with the given timeout
// and a call queued behind it, and checks what the scheduler makes of
// them; it reports false, checking nothing, when the timeout came before
// the tool started.
func deafRound(t *testing.T, timeout time.Duration) (started bool) {
	t.Helper()
	s := NewScheduler(Options{Limit: 1, DefaultTimeout: timeout, Grace: time.Millisecond})
	entered := make(chan struct{})
	stuck := make(chan struct{})
	returned := make(chan struct{})
	deaf := toolOf(t, "deaf", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		defer close(returned)
		close(entered)
		<-stuck
		return contract.ToolOutcome{Content: "too late"}, nil
	})
	outs := newOutcomes(2)
	if err := s.Dispatch(context.Background(), Job{Call: call("deaf"), Tool: deaf, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	// The call behind takes no default: a timeout as short as the deaf
	// tool's would, on a busy machine, end it too before it answered.
	if err := s.Dispatch(context.Background(), Job{Call: call("next"), Tool: toolOf(t, "ok", text("ok"), Timeout(time.Minute)), Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	got := []Outcome{outs.next(t), outs.next(t)}
	select {
	case <-entered:
	default:
		close(stuck)
		closeScheduler(t, s)
		return false
	}
	want := []Outcome{
		{CallID: "deaf", TimedOut: true, Outcome: contract.ToolOutcome{Content: fmt.Sprintf("tool \"deaf\" timed out after %v", timeout), IsError: true}},
		// The grace frees the slot, so the queue moves past the stuck tool.
		{CallID: "next", Outcome: contract.ToolOutcome{Content: "ok"}},
	}
	if diff := cmp.Diff(want, got, ignoreDuration); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if n := s.Stragglers(); n != 1 {
		t.Errorf("Stragglers() = %d, want 1", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	err := s.Close(ctx)
	cancel()
	if !errors.Is(err, ErrStragglers) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "deaf (call deaf)") {
		t.Errorf("Close() = %v, want ErrStragglers naming deaf", err)
	}
	close(stuck)
	<-returned
	closeScheduler(t, s)
	if n := s.Stragglers(); n != 0 {
		t.Errorf("Stragglers() after return = %d, want 0", n)
	}
	select {
	case o := <-outs:
		t.Errorf("second outcome delivered: %+v", o)
	default:
	}
	return true
}

func TestSchedulerStartHook(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	var ran []string
	var mu sync.Mutex
	note := func(s string) {
		mu.Lock()
		ran = append(ran, s)
		mu.Unlock()
	}
	tool := toolOf(t, "t", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		note("tool " + CallID(ctx))
		return contract.ToolOutcome{Content: "ok"}, nil
	})
	outs := newOutcomes(2)
	okStart := func(ctx context.Context) error { note("start " + CallID(ctx)); return nil }
	badStart := func(context.Context) error { return errors.New("store down") }
	if err := s.Dispatch(context.Background(), Job{Call: call("a"), Tool: tool, Start: okStart, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Outcome{CallID: "a", Outcome: contract.ToolOutcome{Content: "ok"}}, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if err := s.Dispatch(context.Background(), Job{Call: call("b"), Tool: tool, Start: badStart, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	want := Outcome{CallID: "b", Outcome: contract.ToolOutcome{Content: `tool "t" was not started: store down`, IsError: true}}
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"start a", "tool a"}, ran); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerContextCarriesIDs(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	tool := toolOf(t, "ids", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: CallID(ctx) + "/" + SessionID(ctx) + "/" + RunID(ctx)}, nil
	})
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("call-1"), SessionID: "sess", RunID: "run-7", Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	if got := outs.next(t).Outcome.Content; got != "call-1/sess/run-7" {
		t.Errorf("ids = %q, want call-1/sess/run-7", got)
	}
	if diff := cmp.Diff(IDs{}, IDsFrom(context.Background())); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerToolErrorOutcome(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	tool := toolOf(t, "fails", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{}, errors.New("disk full")
	})
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	want := Outcome{CallID: "c", Outcome: contract.ToolOutcome{Content: "disk full", IsError: true}}
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestSchedulerDispatchErrors(t *testing.T) {
	s := NewScheduler(Options{Limit: 1})
	started := make(chan string, 1)
	release := make(chan struct{})
	tool := toolOf(t, "t", blockUntil(started, release))
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("busy"), Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	<-started
	tests := []struct {
		name string
		ctx  context.Context
		job  Job
		want error
	}{
		{"nil context", nil, Job{Call: call("x"), Tool: tool, Done: outs.done}, ErrBadJob},
		{"no id", context.Background(), Job{Tool: tool, Done: outs.done}, ErrBadJob},
		{"no tool", context.Background(), Job{Call: call("x"), Done: outs.done}, ErrBadJob},
		{"no done", context.Background(), Job{Call: call("x"), Tool: tool}, ErrBadJob},
		{"duplicate", context.Background(), Job{Call: call("busy"), Tool: tool, Done: outs.done}, ErrDuplicateCall},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Dispatch(tt.ctx, tt.job); !errors.Is(err, tt.want) {
				t.Errorf("Dispatch() = %v, want %v", err, tt.want)
			}
		})
	}
	close(release)
	outs.next(t)
	closeScheduler(t, s)
	if err := s.Dispatch(context.Background(), Job{Call: call("late"), Tool: tool, Done: outs.done}); !errors.Is(err, ErrClosed) {
		t.Errorf("Dispatch after Close = %v, want ErrClosed", err)
	}
}

func TestSchedulerDonePanicIsContained(t *testing.T) {
	s := NewScheduler(Options{})
	outs := newOutcomes(1)
	tool := toolOf(t, "t", text("ok"))
	if err := s.Dispatch(context.Background(), Job{Call: call("a"), Tool: tool, Done: func(Outcome) { panic("bad callback") }}); err != nil {
		t.Fatal(err)
	}
	if err := s.Dispatch(context.Background(), Job{Call: call("b"), Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	outs.next(t)
	closeScheduler(t, s)
}

func TestSchedulerDeliversAsCallsFinish(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	started := make(chan string, 2)
	release := make(chan struct{})
	outs := newOutcomes(2)
	if err := s.Dispatch(context.Background(), Job{Call: call("slow"), Tool: toolOf(t, "slow", blockUntil(started, release)), Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := s.Dispatch(context.Background(), Job{Call: call("fast"), Tool: toolOf(t, "fast", text("ok")), Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	if got := outs.next(t).CallID; got != "fast" {
		t.Errorf("first outcome %s, want fast while slow still runs", got)
	}
	close(release)
	if got := outs.next(t).CallID; got != "slow" {
		t.Errorf("second outcome %s, want slow", got)
	}
}

func TestSchedulerRedispatchFromDone(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	outs := newOutcomes(1)
	tool := toolOf(t, "t", text("ok"))
	first := func(Outcome) {
		if err := s.Dispatch(context.Background(), Job{Call: call("same"), Tool: tool, Done: outs.done}); err != nil {
			t.Errorf("redispatch: %v", err)
		}
	}
	if err := s.Dispatch(context.Background(), Job{Call: call("same"), Tool: tool, Done: first}); err != nil {
		t.Fatal(err)
	}
	outs.next(t)
}

func TestSchedulerToolSeesDeadline(t *testing.T) {
	s := NewScheduler(Options{DefaultTimeout: time.Hour})
	defer closeScheduler(t, s)
	left := func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		d, ok := ctx.Deadline()
		if !ok {
			return contract.ToolOutcome{Content: "no deadline"}, nil
		}
		if until := time.Until(d); until > 0 && until <= time.Minute {
			return contract.ToolOutcome{Content: "within a minute"}, nil
		}
		return contract.ToolOutcome{Content: "beyond a minute"}, nil
	}
	tests := []struct {
		name string
		opts []Option
		ctx  func() (context.Context, context.CancelFunc)
		want string
	}{
		{"default", nil, func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }, "beyond a minute"},
		{"descriptor", []Option{Timeout(time.Minute)}, func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }, "within a minute"},
		{"dispatch context first", nil, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), time.Minute)
		}, "within a minute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := tt.ctx()
			defer cancel()
			outs := newOutcomes(1)
			if err := s.Dispatch(ctx, Job{Call: call(tt.name), Tool: toolOf(t, "left", left, tt.opts...), Done: outs.done}); err != nil {
				t.Fatal(err)
			}
			if got := outs.next(t).Outcome.Content; got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSchedulerCancelledContextRunsNothing(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	ran := make(chan struct{}, 1)
	tool := toolOf(t, "t", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		ran <- struct{}{}
		return contract.ToolOutcome{}, nil
	})
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("user pressed stop"))
	outs := newOutcomes(1)
	if err := s.Dispatch(ctx, Job{Call: call("c"), Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	want := Outcome{CallID: "c", Cancelled: true, Outcome: contract.ToolOutcome{Content: `tool "t" cancelled: user pressed stop`, IsError: true}}
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	select {
	case <-ran:
		t.Error("tool ran under a cancelled context")
	default:
	}
}

func TestSchedulerCloseCancelsEverything(t *testing.T) {
	s := NewScheduler(Options{Limit: 1})
	started := make(chan string, 4)
	tool := toolOf(t, "block", blockUntil(started, nil))
	outs := newOutcomes(4)
	for _, id := range []string{"a", "b", "c"} {
		if err := s.Dispatch(context.Background(), Job{Call: call(id), Tool: tool, Done: outs.done}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	closeScheduler(t, s)
	got := map[string]bool{}
	for range 3 {
		o := outs.next(t)
		got[o.CallID] = o.Cancelled
	}
	if diff := cmp.Diff(map[string]bool{"a": true, "b": true, "c": true}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if len(started) != 0 {
		t.Errorf("queued calls started during Close")
	}
}

func TestSchedulerSlowDoneDoesNotHoldTheSlot(t *testing.T) {
	s := NewScheduler(Options{Limit: 1})
	defer closeScheduler(t, s)
	bStarted := make(chan string, 1)
	outs := newOutcomes(2)
	slowDone := func(o Outcome) {
		select {
		case <-bStarted:
			outs <- o
		case <-time.After(10 * time.Second):
			t.Error("the next call waited for Done")
		}
	}
	for _, j := range []Job{
		{Call: call("a"), Tool: toolOf(t, "a", text("a")), Done: slowDone},
		{Call: call("b"), Tool: toolOf(t, "b", blockUntil(bStarted, closedChan())), Done: outs.done},
	} {
		if err := s.Dispatch(context.Background(), j); err != nil {
			t.Fatal(err)
		}
	}
	outs.next(t)
	outs.next(t)
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// Close with an ended context must still report success when nothing is
// left to wait for: it once chose at random between "drained" and "ctx
// done" when both were ready.
func TestSchedulerCloseDrainedWithEndedContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for i := range 64 {
		s := NewScheduler(Options{})
		outs := newOutcomes(1)
		if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: toolOf(t, "t", text("ok")), Done: outs.done}); err != nil {
			t.Fatal(err)
		}
		outs.next(t)
		if err := s.Close(context.Background()); err != nil {
			t.Fatalf("round %d: first Close() = %v", i, err)
		}
		if err := s.Close(ctx); err != nil {
			t.Fatalf("round %d: Close(ended ctx) on a drained scheduler = %v, want nil", i, err)
		}
		if err := NewScheduler(Options{}).Close(ctx); err != nil {
			t.Fatalf("round %d: Close(ended ctx) on an idle scheduler = %v, want nil", i, err)
		}
	}
}

// A negative limit holds nothing back: sequential calls and any number of
// others start as soon as they are dispatched, for a caller that schedules
// calls itself.
func TestSchedulerNegativeLimitStartsEveryCall(t *testing.T) {
	s := NewScheduler(Options{Limit: -1})
	defer closeScheduler(t, s)
	started := make(chan string, 12)
	release := make(chan struct{})
	plain := toolOf(t, "plain", blockUntil(started, release))
	seq := toolOf(t, "seq", blockUntil(started, release), Sequential())
	outs := newOutcomes(12)
	for i := range 12 {
		tool := plain
		if i%3 == 0 {
			tool = seq
		}
		if err := s.Dispatch(context.Background(), Job{Call: call(fmt.Sprint(i)), Tool: tool, Done: outs.done}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 12 {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of 12 calls started", i)
		}
	}
	close(release)
	for range 12 {
		if o := <-outs; o.Outcome.IsError {
			t.Errorf("call %s: %s", o.CallID, o.Outcome.Content)
		}
	}
}
