package wire

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/google/go-cmp/cmp"
)

const abortToken = "s3cret"

// abortRequestTo posts an abort for thread to e, with the token when
// authorized, and returns the status and the body's text.
func abortRequestTo(t *testing.T, e *env, thread, body string, authorized bool) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/api/chat/"+thread+"/abort", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if authorized {
		req.Header.Set("Authorization", "Bearer "+abortToken)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// waitPhase waits, a bounded while, for thread id to reach want.
func waitPhase(t *testing.T, h *Handler, id string, want contract.Phase) {
	t.Helper()
	for range 2000 {
		if got, _ := threadPhase(h, id); got == want {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	got, _ := threadPhase(h, id)
	t.Fatalf("thread %q never reached %s; it is %q", id, want, got)
}

// A client stops its thread's run in flight with POST .../{thread}/abort,
// over AG-UI and the AI SDK alike, whether the run waits on its model or
// on a running tool: the run ends at once, aborted, and the stream that
// started it ends with the protocol's abort events. Before, leaving the
// stream only detached, and the run went on.
func TestAbortStopsTheRunInFlight(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		for _, waitsOn := range []contract.Phase{contract.PhaseAwaitingModel, contract.PhaseAwaitingTools} {
			t.Run(string(proto)+"/"+string(waitsOn), func(t *testing.T) {
				gate := make(chan struct{})
				scripts := weatherScript
				var toolGate chan struct{}
				if waitsOn == contract.PhaseAwaitingModel {
					scripts = func() []func(context.Context) ([]turn.Chunk, error) {
						s := weatherScript()
						s[0] = gated(gate, s[0])
						return s
					}
				} else {
					toolGate = gate
				}
				e := newEnvWith(t, envOptions{scripts: scripts, toolGate: toolGate, handler: HandlerOptions{Token: abortToken}})
				t.Cleanup(func() { close(gate) })

				url, body := e.srv.URL, runBody("t1", "weather in Paris?")
				if proto == ProtocolAISDK {
					url, body = e.srv.URL+"/api/chat?protocol=ai-sdk", chatBody("t1", "weather in Paris?")
				}
				req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+abortToken)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				streamed := make(chan []byte, 1)
				go func() {
					b, _ := io.ReadAll(resp.Body)
					streamed <- b
				}()
				waitPhase(t, e.h, "t1", waitsOn)

				if code, msg := abortRequestTo(t, e, "t1", "", false); code != http.StatusUnauthorized {
					t.Errorf("abort without the token: %d %q, want 401", code, msg)
				}
				if got, _ := threadPhase(e.h, "t1"); got != waitsOn {
					t.Fatalf("a refused abort moved the run to %s", got)
				}
				if code, msg := abortRequestTo(t, e, "t1", "", true); code != http.StatusNoContent {
					t.Fatalf("abort: %d %q, want 204", code, msg)
				}
				if got := e.agent("t1").Snapshot().Phase; got != contract.PhaseFaulted {
					t.Errorf("after the abort's answer the run is %s, want faulted", got)
				}
				var raw []byte
				select {
				case raw = <-streamed:
				case <-time.After(10 * time.Second):
					t.Fatal("the aborted run's stream did not end")
				}
				if proto == ProtocolAISDK {
					types, chunks := readUI(t, strings.NewReader(string(raw)))
					if !slices.Contains(types, aisdk.Abort) || types[len(types)-1] != "[DONE]" {
						t.Errorf("the AI SDK stream must end with an abort chunk and [DONE]: %v", types)
					}
					for _, c := range chunks {
						if c.Type == aisdk.Finish || c.Type == aisdk.Error {
							t.Errorf("an aborted run's stream has a %s chunk: %v", c.Type, types)
						}
					}
				} else {
					frames := readSSE(t, strings.NewReader(string(raw)))
					last := frames[len(frames)-1].Event
					if diff := cmp.Diff(agui.Event{Type: agui.RunError, Code: string(contract.KindAborted)}, agui.Event{Type: last.Type, Code: last.Code}); diff != "" {
						t.Errorf("the AG-UI stream's last event (-want +got):\n%s\nall: %v", diff, types(frames))
					}
				}

				if code, msg := abortRequestTo(t, e, "t1", "", true); code != http.StatusConflict {
					t.Errorf("abort with no run in flight: %d %q, want 409", code, msg)
				}
			})
		}
	}
}

// What an abort request is answered when it stops nothing.
func TestAbortRefusals(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{Token: abortToken}})
	for _, tc := range []struct {
		name, thread, body string
		authorized         bool
		code               int
		msg                string
	}{
		{"no token", "t1", "", false, http.StatusUnauthorized, "bearer token"},
		{"unknown thread", "forbidden-1", "", true, http.StatusNotFound, "unknown thread"},
		{"no run in flight", "idle", "", true, http.StatusConflict, "no run in flight"},
		{"bad mode", "idle", `{"mode":"later"}`, true, http.StatusBadRequest, "abort mode"},
		{"bad body", "idle", `{`, true, http.StatusBadRequest, "abort body"},
		{"empty thread id", "", "", true, http.StatusBadRequest, "bad thread id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, msg := abortRequestTo(t, e, tc.thread, tc.body, tc.authorized)
			if code != tc.code || !strings.Contains(msg, tc.msg) {
				t.Errorf("got %d %q, want %d with %q", code, msg, tc.code, tc.msg)
			}
		})
	}
}
