package endpoint

import (
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
)

// Settings is where the options write.
type Settings struct {
	BaseURL string
	APIKey  string
	Client  *http.Client
}

// Option sets one of an HTTP provider's settings. Every provider takes
// these, so a host configures each the same way.
type Option func(*Settings)

// BaseURL points the provider at another server speaking its API: a
// local one, a gateway, a proxy. Empty keeps the base URL set before
// (by the environment, or the default), as a host passing its unset
// configuration along means.
func BaseURL(url string) Option {
	return func(s *Settings) {
		if url != "" {
			s.BaseURL = url
		}
	}
}

// APIKey sets the API key; empty sends none, which local servers and
// gateways that add their own credentials accept.
func APIKey(key string) Option { return func(s *Settings) { s.APIKey = key } }

// HTTPClient sets the HTTP client; nil keeps http.DefaultClient.
func HTTPClient(c *http.Client) Option { return func(s *Settings) { s.Client = c } }

// Resolve applies opts in order over defaultBaseURL and http.DefaultClient.
// Nil options are skipped and a nil client falls back to the default.
func Resolve(defaultBaseURL string, opts []Option) Settings {
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
// environment variables urlVar and keyVar, each only when set and not
// blank, followed by opts so that those given in code win. Surrounding
// space is trimmed: a secret mounted from a file, or a .env file written
// on Windows, ends in a line break that no URL or header may carry, and
// every request would fail.
func FromEnv(urlVar, keyVar string, opts []Option) []Option {
	var env []Option
	if v := strings.TrimSpace(os.Getenv(urlVar)); v != "" {
		env = append(env, BaseURL(v))
	}
	if v := strings.TrimSpace(os.Getenv(keyVar)); v != "" {
		env = append(env, APIKey(v))
	}
	return append(env, opts...)
}

// SDK is how a provider's SDK takes the settings: its request-option
// constructors, R being its request option type.
type SDK[R any] struct {
	BaseURL    func(url string) R
	HTTPClient func(c *http.Client) R
	// APIKey sends the key as the API expects it.
	APIKey func(key string) R
	// NoRetries switches the SDK's own retries off: the turn driver owns
	// retries and their backoff.
	NoRetries R
	// Middleware wraps the SDK's HTTP calls in middleware that fixes
	// what its decoder misreads (see StripBOM); nil adds none.
	Middleware func(...Middleware) R
	// APIPath is the path the SDK puts before every call's own, such as
	// "v1" for Anthropic's; a base URL ending in it has it trimmed, so
	// one copied with it does not send calls to /v1/v1/. Empty trims
	// nothing.
	APIPath string
}

// Resolve resolves opts as Resolve does and returns the SDK's request
// options for them. The slice has no spare capacity: SDKs append each
// call's options to it in place, and concurrent calls would otherwise
// share (and race on) its tail.
func (sdk SDK[R]) Resolve(defaultBaseURL string, opts []Option) []R {
	s := Resolve(defaultBaseURL, opts)
	out := []R{sdk.BaseURL(trimAPIPath(s.BaseURL, sdk.APIPath)), sdk.HTTPClient(s.Client), sdk.NoRetries}
	if sdk.Middleware != nil {
		out = append(out, sdk.Middleware(StripBOM))
	}
	if s.APIKey != "" {
		out = append(out, sdk.APIKey(s.APIKey))
	}
	return slices.Clip(out)
}

// trimAPIPath returns base without a trailing path segment api, keeping
// the slash before it; any other base is returned as given.
func trimAPIPath(base, api string) string {
	if api == "" {
		return base
	}
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	path, ok := strings.CutSuffix(strings.TrimSuffix(u.Path, "/"), "/"+api)
	if !ok {
		return base
	}
	u.Path, u.RawPath = path+"/", ""
	return u.String()
}
