package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// TestServeMessageSteersWaitingRun: a message a page posts while its
// thread's run waits for an answer redirects that run, as it does on any
// agent the wire drives, instead of being refused as a run in flight.
func TestServeMessageSteersWaitingRun(t *testing.T) {
	isolate(t)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	script := scripted.New(
		scripted.Reply{Text: "One question.", Calls: []scripted.Call{{ID: "q1", Name: "ask_human", Arguments: `{"question":"Which city?"}`}}},
		scripted.Reply{Text: "Going to Oslo."},
	)
	addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
		return a.serveWith(ctx, ln, st, script, "scripted", []dispatch.Tool{dispatch.AskHuman("")}, serveConfig{namespace: defaultNamespace})
	})
	defer stop()
	post := func(body string) (int, string) {
		t.Helper()
		resp, err := http.Post(addr+"/", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := post(`{"threadId":"trip","runId":"r1","messages":[{"id":"m1","role":"user","content":"plan a trip"}]}`)
	if code != http.StatusOK || !strings.Contains(body, `"phase":"awaiting_human"`) {
		t.Fatalf("first stream (%d) does not wait for the answer:\n%s", code, body)
	}
	code, body = post(`{"threadId":"trip","runId":"r2","messages":[{"id":"m1","role":"user","content":"plan a trip"},{"id":"m2","role":"user","content":"never mind, Oslo"}]}`)
	if code != http.StatusOK || !strings.Contains(body, "Oslo.") || !strings.Contains(body, `"phase":"settled"`) {
		t.Errorf("message while the run waits (%d), want the steered run's stream:\n%s", code, body)
	}
}
