package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// headlessStore fails to read any session's head, as a store whose disk
// failed does.
type headlessStore struct{ store.Store }

func (headlessStore) Head(context.Context, string) (store.Hash, error) {
	return store.Hash{}, errors.New("store: read head of serve-t1: input/output error")
}

// A thread serve cannot open gets 500 saying what failed, not why: the
// cause goes to serve's stderr, for whoever runs it. It went nowhere.
func TestServeLogsWhatFailed(t *testing.T) {
	isolate(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out, errs := newSyncBuffer(), newSyncBuffer()
	a := &app{stdout: out, stderr: errs}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- a.serveOn(ctx, ln, headlessStore{store.NewMemory()}, scripted.Echo(), "scripted", nil)
	}()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		http.DefaultClient.CloseIdleConnections()
	}()
	out.waitFor(t, "serving AG-UI on http://")
	resp, err := http.Get("http://" + ln.Addr().String() + "/t1/messages")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusInternalServerError || strings.Contains(string(body), "input/output") {
		t.Errorf("GET of a thread that cannot be opened: %d %q, want 500 without the cause", resp.StatusCode, body)
	}
	// The handler logs before it answers.
	if got := errs.String(); !strings.Contains(got, "input/output error") || !strings.Contains(got, `could not be opened`) {
		t.Errorf("stderr lacks the cause of the 500:\n%s", got)
	}
}
