package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// With MaxThreadsPerUser, one user's live threads stop at the cap while
// another user still gets threads: a user at the cap gets 503 unless one
// of the user's own threads went idle, which then gives its place, and
// no other user's thread is closed for it.
func TestUserThreadCap(t *testing.T) {
	gate := make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: blockingScript(gate), handler: HandlerOptions{Users: twoUsers, MaxThreads: 4, MaxThreadsPerUser: 2}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	as := func(u User) map[string]string {
		return map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + u.Token}
	}
	alice, bob := twoUsers[0], twoUsers[1]
	for _, id := range []string{"a", "b"} {
		resp := e.post(ctx, runBody(id, "hi"), as(alice))
		defer resp.Body.Close()
		waitFor(t, func() bool { return e.agent("alice/"+id) != nil && e.agent("alice/"+id).Snapshot().Phase.InFlight() })
	}
	if code, body, _ := e.do("POST", "", runBody("c", "hi"), as(alice)); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many live threads") {
		t.Errorf("alice's third thread while two run: %d %q, want 503", code, body)
	}
	resp := e.post(ctx, runBody("x", "hi"), as(bob))
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("bob's first thread while alice is at her cap: %d, want 200", resp.StatusCode)
	}
	waitFor(t, func() bool { return e.agent("bob/x") != nil && e.agent("bob/x").Snapshot().Phase.InFlight() })
	close(gate)
	cancel()
	waitFor(t, func() bool { return e.agent("alice/a").Snapshot().Phase.Terminal() && e.users("alice/a") == 0 })
	if code, body, _ := e.do("POST", "", runBody("c", "hi"), as(alice)); code != http.StatusOK {
		t.Errorf("alice's third thread after one of hers went idle: %d %q", code, body)
	}
	e.h.mu.Lock()
	_, kept := e.h.threads["bob/x"]
	e.h.mu.Unlock()
	if !kept {
		t.Error("bob's idle thread was closed to make room for alice's")
	}
}
