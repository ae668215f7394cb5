package endpoint

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	custom := &http.Client{}
	tests := []struct {
		name string
		opts []Option
		want Settings
	}{
		{"defaults", nil, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
		{"all set", []Option{BaseURL("http://local/"), APIKey("k"), HTTPClient(custom)},
			Settings{BaseURL: "http://local/", APIKey: "k", Client: custom}},
		{"later wins", []Option{APIKey("a"), APIKey("b")}, Settings{BaseURL: "https://default/", APIKey: "b", Client: http.DefaultClient}},
		{"nil client keeps default", []Option{HTTPClient(nil)}, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
		{"nil option skipped", []Option{nil, APIKey("k")}, Settings{BaseURL: "https://default/", APIKey: "k", Client: http.DefaultClient}},
		// A host passing its configuration's unset base URL along means
		// no base URL of its own, not one every call fails to reach.
		{"empty base URL keeps the one before", []Option{BaseURL("http://env/"), BaseURL("")}, Settings{BaseURL: "http://env/", Client: http.DefaultClient}},
		{"empty base URL keeps the default", []Option{BaseURL("")}, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve("https://default/", tt.opts)
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b *http.Client) bool { return a == b })); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	tests := []struct {
		name     string
		url, key string
		opts     []Option
		want     Settings
	}{
		{"unset", "", "", nil, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
		{"both", "http://env/", "env-key", nil, Settings{BaseURL: "http://env/", APIKey: "env-key", Client: http.DefaultClient}},
		{"code wins", "http://env/", "env-key", []Option{APIKey("code-key")}, Settings{BaseURL: "http://env/", APIKey: "code-key", Client: http.DefaultClient}},
		// A secret mounted from a file, or a .env file written on Windows,
		// ends in a line break that no header or URL may carry.
		{"line breaks trimmed", "http://env/\n", "env-key\r\n", nil, Settings{BaseURL: "http://env/", APIKey: "env-key", Client: http.DefaultClient}},
		{"blank is unset", " ", "\n", nil, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DEMO_BASE_URL", tt.url)
			t.Setenv("DEMO_API_KEY", tt.key)
			got := Resolve("https://default/", FromEnv("DEMO_BASE_URL", "DEMO_API_KEY", tt.opts))
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b *http.Client) bool { return a == b })); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// sdkOption stands for an SDK's request option: the setting it makes.
type sdkOption string

var sdk = SDK[sdkOption]{
	BaseURL: func(url string) sdkOption { return sdkOption("base " + url) },
	HTTPClient: func(c *http.Client) sdkOption {
		return sdkOption(fmt.Sprintf("client default=%t", c == http.DefaultClient))
	},
	APIKey:     func(key string) sdkOption { return sdkOption("key " + key) },
	NoRetries:  "no retries",
	Middleware: func(m ...Middleware) sdkOption { return sdkOption(fmt.Sprintf("%d middleware", len(m))) },
}

func TestSDKResolve(t *testing.T) {
	tests := []struct {
		name string
		opts []Option
		want []sdkOption
	}{
		{"defaults, no key", nil, []sdkOption{"base https://default/", "client default=true", "no retries", "1 middleware"}},
		{"key and client", []Option{APIKey("k"), HTTPClient(&http.Client{})}, []sdkOption{"base https://default/", "client default=false", "no retries", "1 middleware", "key k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sdk.Resolve("https://default/", tt.opts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if cap(got) != len(got) {
				t.Errorf("cap %d, len %d: an SDK appending to the options would share their tail", cap(got), len(got))
			}
		})
	}
}
