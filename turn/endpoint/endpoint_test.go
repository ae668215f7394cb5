package endpoint

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// option stands for a provider's own named Option type.
type option func(*Settings)

func TestResolve(t *testing.T) {
	custom := &http.Client{}
	tests := []struct {
		name string
		opts []option
		want Settings
	}{
		{"defaults", nil, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
		{"all set", []option{option(BaseURL("http://local/")), option(APIKey("k")), option(HTTPClient(custom))},
			Settings{BaseURL: "http://local/", APIKey: "k", Client: custom}},
		{"later wins", []option{option(APIKey("a")), option(APIKey("b"))}, Settings{BaseURL: "https://default/", APIKey: "b", Client: http.DefaultClient}},
		{"nil client keeps default", []option{option(HTTPClient(nil))}, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
		{"nil option skipped", []option{nil, option(APIKey("k"))}, Settings{BaseURL: "https://default/", APIKey: "k", Client: http.DefaultClient}},
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
		opts     []option
		want     Settings
	}{
		{"unset", "", "", nil, Settings{BaseURL: "https://default/", Client: http.DefaultClient}},
		{"both", "http://env/", "env-key", nil, Settings{BaseURL: "http://env/", APIKey: "env-key", Client: http.DefaultClient}},
		{"code wins", "http://env/", "env-key", []option{option(APIKey("code-key"))}, Settings{BaseURL: "http://env/", APIKey: "code-key", Client: http.DefaultClient}},
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
