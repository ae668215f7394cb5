package turn_test

import (
	"testing"

	"github.com/batonrt/baton/turn"
)

func TestNormalizeToolName(t *testing.T) {
	known := []string{"get_weather", "Search", "read-file"}
	tests := []struct{ in, want string }{
		{"get_weather", "get_weather"},
		{"  get_weather\n", "get_weather"},
		{"functions.get_weather", "get_weather"},
		{"tools:get_weather", "get_weather"},
		{"default_api/get_weather", "get_weather"},
		{"GET_WEATHER", "get_weather"},
		{"search", "Search"},
		{"functions.READ-FILE", "read-file"},
		{"functions.unknown", "unknown"},
		{"unknown", "unknown"},
		{"trailing.", "trailing."},
		{"", ""},
	}
	for _, tt := range tests {
		if got := turn.NormalizeToolName(tt.in, known); got != tt.want {
			t.Errorf("NormalizeToolName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
