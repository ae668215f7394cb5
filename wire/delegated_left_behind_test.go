package wire

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// TestAStreamTheLogLeftBehindGetsTheDelegatesEvents: a stream so slow
// that the thread's log, which keeps two runs, let go of its place while
// a delegate's child ran takes what it missed from the store, and is
// shown the rest of the child, not the run's own events alone, and
// nothing past its run's end.
// Before, it got the run's own events from the store only, and all of
// them, the later runs' included, though its run had ended.
func TestAStreamTheLogLeftBehindGetsTheDelegatesEvents(t *testing.T) {
	e := newDelegatingEnv(t)
	e.scripts = func() []func(context.Context) ([]turn.Chunk, error) {
		return slices.Concat(delegatingScript(), delegatingScript(), delegatingScript())
	}
	var first []sseFrame
	for i := range 3 {
		resp := e.post(context.Background(), runBody("t-d", fmt.Sprint("weather ", i)), nil)
		frames := readSSE(t, resp.Body)
		resp.Body.Close()
		if i == 0 {
			first = frames
		}
	}
	want := subflowLines(first)

	ctx := t.Context()
	e.h.mu.Lock()
	th := e.h.threads["t-d"]
	e.h.mu.Unlock()
	own, err := th.r.EventsSince(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	began := slices.IndexFunc(own, func(ev contract.RunEvent) bool { return ev.Kind == contract.EvSubflowStarted })
	child, err := e.agent("t-d").DelegatedEvents(ctx, own[began].Text)
	if err != nil {
		t.Fatal(err)
	}
	child[0].Subflow = []string{own[began].Call.ID}
	rec := httptest.NewRecorder()
	s := newStreamer(rec, httptest.NewRequest("POST", "/", nil), th, ProtocolAGUI)
	for _, ev := range append(own[:began+1:began+1], child[0]) {
		if err := s.emit(ev); err != nil {
			t.Fatal(err)
		}
	}
	if th.log.start0() == 0 {
		t.Fatal("the log still holds the first run")
	}
	if err := s.follow(ctx, nil); err != nil {
		t.Fatal(err)
	}
	frames := readSSE(t, rec.Body)
	if diff := cmp.Diff(want, subflowLines(frames)); diff != "" {
		t.Errorf("the first run's child mismatch (-live +left behind):\n%s", diff)
	}
	if end := slices.IndexFunc(frames, func(f sseFrame) bool { return f.Event.Type == agui.RunFinished }); end != len(frames)-1 {
		t.Errorf("the stream goes on past its run's end: %v", types(frames))
	}
}
