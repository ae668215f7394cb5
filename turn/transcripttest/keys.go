package transcripttest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// Keys says how a provider takes its API key, for Suite.Keys.
type Keys struct {
	// New and NewFromEnv are the provider's constructors.
	New, NewFromEnv func(opts ...endpoint.Option) turn.Provider
	// URLVar and KeyVar are the environment variables NewFromEnv reads.
	URLVar, KeyVar string
	// Header carries the key, and Sent is what it holds for a key.
	Header string
	Sent   func(key string) string
}

// Keys checks that a key given with endpoint.APIKey is sent as k says,
// that none is sent without one, and that NewFromEnv takes the base URL
// and the key from the environment. Each plays the transcript text.sse
// of s.Dir.
func (s Suite) Keys(t *testing.T, k Keys) {
	for _, tt := range []struct {
		name string
		key  string // "" sends none
		env  bool   // made by NewFromEnv
	}{
		{"key in code", "sk-code", false},
		{"no key", "", false},
		{"key from the environment", "sk-env", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := ServeFile(t, filepath.Join(s.Dir, "text.sse"))
			var p turn.Provider
			if tt.env {
				t.Setenv(k.URLVar, srv.URL)
				t.Setenv(k.KeyVar, tt.key)
				p = k.NewFromEnv(endpoint.HTTPClient(srv.Client()))
			} else {
				p = k.New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()), endpoint.APIKey(tt.key))
			}
			if _, err := Collect(context.Background(), p, s.Request()); err != nil {
				t.Fatal(err)
			}
			want := ""
			if tt.key != "" {
				want = k.Sent(tt.key)
			}
			if got := srv.Header(0).Get(k.Header); got != want {
				t.Errorf("%s = %q, want %q", k.Header, got, want)
			}
		})
	}
}
