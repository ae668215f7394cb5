package wire

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

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
