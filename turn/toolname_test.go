package turn_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
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

func TestWireToolName(t *testing.T) {
	long := strings.Repeat("a", 70)
	tests := []struct{ in, want string }{
		{"get_weather", "get_weather"},
		{"read-file", "read-file"},
		{"get weather", "invalid_name_get_weather"},
		{"web.search", "invalid_name_web_search"},
		{"", "invalid_name_"},
		{"météo", "invalid_name_m_t_o"},
		{long, "invalid_name_" + long[:64-len("invalid_name_")]},
	}
	for _, tt := range tests {
		got := turn.WireToolName(tt.in)
		if got != tt.want {
			t.Errorf("WireToolName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !contract.ValidToolName(got) {
			t.Errorf("WireToolName(%q) = %q, which is not a valid tool name", tt.in, got)
		}
	}
}
