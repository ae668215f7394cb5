package endpoint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSDKResolveTrimsAPIPath: a base URL copied with the path the SDK
// adds itself (https://api.anthropic.com/v1) would have every call go to
// /v1/v1/messages; the path is trimmed, and any other left alone.
func TestSDKResolveTrimsAPIPath(t *testing.T) {
	versioned := sdk
	versioned.APIPath = "v1"
	tests := []struct{ base, want string }{
		{"https://gw.example/v1", "https://gw.example/"},
		{"https://gw.example/v1/", "https://gw.example/"},
		{"https://gw.example/anthropic/v1", "https://gw.example/anthropic/"},
		{"http://[::1]:8080/v1/", "http://[::1]:8080/"},
		{"https://gw.example/v1beta", "https://gw.example/v1beta"},
		{"https://gw.example/api/", "https://gw.example/api/"},
		{"https://gw.example", "https://gw.example"},
	}
	for _, tt := range tests {
		got := versioned.Resolve("https://default/", []Option{BaseURL(tt.base)})[0]
		if diff := cmp.Diff(sdkOption("base "+tt.want), got); diff != "" {
			t.Errorf("base %q mismatch (-want +got):\n%s", tt.base, diff)
		}
	}
}
