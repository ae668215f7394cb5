package endpoint

import (
	"net/http"
	"os"
)

// Settings is where a provider's options write.
type Settings struct {
	BaseURL string
	APIKey  string
	Client  *http.Client
}

// Option is the shape of every provider's Option type: each declares its
// own named type over it.
type Option = func(*Settings)

// BaseURL sets the base URL.
func BaseURL(url string) Option { return func(s *Settings) { s.BaseURL = url } }

// APIKey sets the API key; empty sends none.
func APIKey(key string) Option { return func(s *Settings) { s.APIKey = key } }

// HTTPClient sets the HTTP client; nil keeps http.DefaultClient.
func HTTPClient(c *http.Client) Option { return func(s *Settings) { s.Client = c } }

// Resolve applies opts in order over defaultBaseURL and http.DefaultClient.
// Nil options are skipped and a nil client falls back to the default.
func Resolve[O ~func(*Settings)](defaultBaseURL string, opts []O) Settings {
	s := Settings{BaseURL: defaultBaseURL, Client: http.DefaultClient}
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	if s.Client == nil {
		s.Client = http.DefaultClient
	}
	return s
}

// FromEnv returns options for the base URL and API key named by the
// environment variables urlVar and keyVar, each only when set, followed
// by opts so that those given in code win.
func FromEnv[O ~func(*Settings)](urlVar, keyVar string, opts []O) []O {
	var env []O
	if v := os.Getenv(urlVar); v != "" {
		env = append(env, O(BaseURL(v)))
	}
	if v := os.Getenv(keyVar); v != "" {
		env = append(env, O(APIKey(v)))
	}
	return append(env, opts...)
}
