package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// parallelDelegateScript is streamingDelegateScript whose parent calls
// the weather tool beside its delegate, so that events of the parent's
// own run come while the delegate's child streams.
func parallelDelegateScript() []func(context.Context) ([]turn.Chunk, error) {
	replies := streamingDelegateScript()
	replies[0] = reply(
		turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_d", Name: "delegate_helper"},
		turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"task":"weather in Paris"}`},
		turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
		turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 1, CallID: "call_w", Name: "get_weather"},
		turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 1, Text: `{"city":"Lyon"}`},
		turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 1},
		turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	return replies
}

// getResumeFrom resumes thread's AG-UI stream at url from the SSE id last.
func getResumeFrom(t *testing.T, url, thread, last string) []sseFrame {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url+"?threadId="+thread, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resume from %s: status %d", last, resp.StatusCode)
	}
	return readSSE(t, resp.Body)
}

// TestALaggingAGUIStreamResumesExactlyInsideADelegatedRun: a thread
// whose subscription lags while a delegate's child streams (the lag
// notices standing among the child's events, the parent's own events
// dropped there) gives an AG-UI client ids that resume it exactly: cut
// after any frame with an id, the client has the delegate's events and
// the text once, as the client of a thread that kept up.
func TestALaggingAGUIStreamResumesExactlyInsideADelegatedRun(t *testing.T) {
	for _, stall := range []bool{false, true} {
		url := newScriptedLagServer(t, stall, parallelDelegateScript)
		resp := postTo(t, url, runBody("lag-r", "weather in Paris?"))
		frames := readSSE(t, resp.Body)
		resp.Body.Close()
		want, wantText := subflowLines(frames), aguiText(frames)
		if !strings.Contains(strings.Join(want, "\n"), "18C, cloudy in Paris.") || !strings.Contains(wantText, "Paris: 18C, cloudy.") {
			t.Fatalf("stall %v: the stream shows no reply of the delegate or the parent: %v %q", stall, want, wantText)
		}
		ids := 0
		for i, f := range frames {
			if f.ID == "" {
				continue
			}
			ids++
			got := append(frames[:i+1:i+1], getResumeFrom(t, url, "lag-r", f.ID)...)
			if diff := cmp.Diff(want, subflowLines(got)); diff != "" {
				t.Errorf("stall %v: cut after frame %d (%s), resumed from %s: delegated events mismatch (-want +got):\n%s", stall, i, f.Event.Type, f.ID, diff)
			}
			if text := aguiText(got); text != wantText {
				t.Errorf("stall %v: cut after frame %d (%s), resumed from %s: text %q, want %q", stall, i, f.Event.Type, f.ID, text, wantText)
			}
		}
		if !strings.Contains(strings.Join(frameIDs(frames), " "), "+") {
			t.Errorf("stall %v: no frame of the delegated run carries an id: %v", stall, frameIDs(frames))
		}
		t.Logf("stall %v: %d ids: %v", stall, ids, frameIDs(frames))
	}
}

func frameIDs(frames []sseFrame) []string {
	var out []string
	for _, f := range frames {
		if f.ID != "" {
			out = append(out, f.ID)
		}
	}
	return out
}
