package wire

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/internal/track"
)

// aguiText is the text of the TEXT_MESSAGE_CONTENT frames, in order.
func aguiText(frames []sseFrame) string {
	var b strings.Builder
	for _, f := range frames {
		if f.Event.Type == agui.TextMessageContent {
			b.WriteString(f.Event.Delta)
		}
	}
	return b.String()
}

// TestAnAGUIStreamResumesInsideAStreamingDelegatedRun: an AG-UI stream
// whose delegate streams text, cut after any frame with an id and
// resumed from it, gives the delegate's events and the text once, as
// NDJSON's now does: a delegate's deltas have no AG-UI frames, and the
// frames of its stored events carry ids of their own ("id+n").
func TestAnAGUIStreamResumesInsideAStreamingDelegatedRun(t *testing.T) {
	e := startEnv(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: streamingDelegateScript, cfg: delegatingConfig()})
	resp := e.post(context.Background(), runBody("t-da", "weather in Paris?"), nil)
	frames := readSSE(t, resp.Body)
	resp.Body.Close()
	want, wantText := subflowLines(frames), aguiText(frames)
	if !strings.Contains(strings.Join(want, "\n"), "18C, cloudy in Paris.") {
		t.Fatalf("the stream shows no reply of the delegate: %v", want)
	}
	for i, f := range frames {
		if f.ID == "" {
			continue
		}
		had := frames[: i+1 : i+1]
		resumed := e.getResume("t-da", f.ID)
		got := append(had, resumed...)
		if diff := cmp.Diff(want, subflowLines(got)); diff != "" {
			t.Fatalf("cut after frame %d (%s), resumed from %s: delegated events mismatch (-want +got):\n%s", i, f.Event.Type, f.ID, diff)
		}
		if text := aguiText(got); text != wantText {
			t.Errorf("cut after frame %d (%s), resumed from %s: text %q, want %q", i, f.Event.Type, f.ID, text, wantText)
		}
	}
}

// TestAnAGUIStreamResumesFromAnNDJSONDelegatedID: an AG-UI stream
// resumed from the id an NDJSON client forms of a delegate's event goes
// on right after that event, and numbers the delegate's frames after it
// as the stream the client would have had, so that it resumes from them
// again exactly.
func TestAnAGUIStreamResumesFromAnNDJSONDelegatedID(t *testing.T) {
	e := startEnv(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: streamingDelegateScript, cfg: delegatingConfig()})
	resp := e.post(context.Background(), runBody("t-dx", "weather in Paris?"), map[string]string{"Accept": ndjsonType})
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	events := readNDJSON(t, string(b))
	want := subflowLines(e.getResume("t-dx", "0"))
	had, cuts := 0, 0
	for i, ev := range events {
		if len(ev.Subflow) == 0 || !track.Stored(ev) {
			continue
		}
		had++
		last := ndjsonLastID(events[:i+1])
		resumed := e.getResume("t-dx", last)
		if diff := cmp.Diff(want[had:], subflowLines(resumed), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("resumed from %q: delegated events mismatch (-want +got):\n%s", last, diff)
		}
		for j, f := range resumed {
			if f.ID == "" || !strings.Contains(f.ID, "+") {
				continue
			}
			cuts++
			got := slices.Concat(want[:had], subflowLines(resumed[:j+1]), subflowLines(e.getResume("t-dx", f.ID)))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("resumed from %q, then from %s: delegated events mismatch (-want +got):\n%s", last, f.ID, diff)
			}
		}
	}
	if cuts == 0 {
		t.Fatal("no resumed stream numbers a delegate's frame")
	}
}
