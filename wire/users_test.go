package wire

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/google/go-cmp/cmp"
)

var twoUsers = []User{{Name: "alice", Token: "alice-0123456789abcdef"}, {Name: "bob", Token: "bob-0123456789abcdef"}}

func helloScript() []func(context.Context) ([]turn.Chunk, error) {
	return []func(context.Context) ([]turn.Chunk, error){says("hello")}
}

// Each user's thread is opened under the user's name, so that the same
// id names two threads; the client still sees its own id in its stream.
func TestUsersThreadsAreKeyedByUser(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: helloScript, handler: HandlerOptions{Users: twoUsers}})
	for _, u := range twoUsers {
		resp := e.post(t.Context(), runBody("t", "hi"), map[string]string{"Authorization": "Bearer " + u.Token})
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"threadId":"t"`) {
			t.Fatalf("%s's stream: %d %s", u.Name, resp.StatusCode, b)
		}
	}
	e.mu.Lock()
	var keys []string
	for k := range e.agents {
		keys = append(keys, k)
	}
	e.mu.Unlock()
	slices.Sort(keys)
	if diff := cmp.Diff([]string{"alice/t", "bob/t"}, keys); diff != "" {
		t.Errorf("threads opened mismatch (-want +got):\n%s", diff)
	}
}

// A request another handler hands on names the user it was taken for;
// a handler whose users say the token is someone else's refuses it as
// misdirected rather than serve that other user's thread.
func TestForwardedRequestKeepsItsUser(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: helloScript, handler: HandlerOptions{Users: twoUsers}})
	for _, tt := range []struct {
		user string
		want int
	}{
		{"alice", http.StatusMisdirectedRequest},
		{"", http.StatusMisdirectedRequest},
		{"bob", http.StatusOK},
	} {
		resp := e.post(t.Context(), runBody("t", "hi"), map[string]string{"Authorization": "Bearer " + twoUsers[1].Token, forwardedHeader: "1", userHeader: tt.user})
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("bob's token forwarded as %q's: %d %s, want %d", tt.user, resp.StatusCode, b, tt.want)
		}
	}
	if e.agent("alice/t") != nil {
		t.Errorf("alice's thread was opened for bob's token")
	}
}

// Users are checked when the handler is made: a name that could not be
// told from a thread id's part, or a token two users share, is a
// programming error.
func TestNewHandlerRefusesBadUsers(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts HandlerOptions
	}{
		{"empty name", HandlerOptions{Users: []User{{Name: "", Token: "x"}}}},
		{"slash in name", HandlerOptions{Users: []User{{Name: "a/b", Token: "x"}}}},
		{"control in name", HandlerOptions{Users: []User{{Name: "a\nb", Token: "x"}}}},
		{"empty token", HandlerOptions{Users: []User{{Name: "a"}}}},
		{"same name", HandlerOptions{Users: []User{{Name: "a", Token: "x"}, {Name: "a", Token: "y"}}}},
		{"same token", HandlerOptions{Users: []User{{Name: "a", Token: "x"}, {Name: "b", Token: "x"}}}},
		{"with Token", HandlerOptions{Token: "t", Users: []User{{Name: "a", Token: "x"}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("NewRunnerHandler accepted %+v", tt.opts.Users)
				}
			}()
			h := NewRunnerHandler(func(context.Context, string) (Runner, error) { return nil, ErrUnknownThread }, tt.opts)
			h.Close()
		})
	}
}

// An answer refused because the thread's run waits for none names the
// thread as its client does, not by its session, whose id holds the
// user's name.
func TestUsersAnswerRefusalNamesTheClientsThread(t *testing.T) {
	st := store.NewMemory()
	h := NewRunnerHandler(func(ctx context.Context, key string) (Runner, error) {
		prov := &script{replies: helloScript()}
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Env: conductor.Env{Store: st, SessionID: "serve-" + key}})
		if err != nil {
			return nil, err
		}
		return humanRunner{AgentRunner(a), a}, nil
	}, HandlerOptions{Users: twoUsers})
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	e := &env{t: t, srv: srv}
	auth := map[string]string{"Content-Type": "application/json", "Authorization": "Bearer " + twoUsers[0].Token}
	post := func(body string) (int, string) {
		code, b, _ := e.do(http.MethodPost, "", body, auth)
		return code, b
	}
	if code, b := post(runBody("t", "hi")); code != http.StatusOK {
		t.Fatalf("run: %d %q", code, b)
	}
	code, b := post(`{"threadId":"t","runId":"r2","messages":[{"id":"m1","role":"user","content":"hi"},{"id":"a1","role":"tool","toolCallId":"q1","content":"blue"}]}`)
	if code != http.StatusConflict || !strings.Contains(b, `thread "t"`) || strings.Contains(b, "alice") {
		t.Errorf("an answer to a thread whose run waits for none: %d %q, want 409 naming thread \"t\"", code, b)
	}
}
