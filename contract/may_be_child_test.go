package contract_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

func TestMayBeChildSession(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{contract.ChildSession("thread", 3, 0), true},
		{contract.ChildSession(contract.ChildSession("thread", 3, 0), 12, 4), true},
		{"t1", false},
		{"team/alpha", false},
		{"v/1.", false},
		{"v/1.-1", false},
		{"v/.2", false},
		{"notes/2026.11", true},
		{contract.ChildSession(strings.Repeat("t", contract.MaxSessionID), 3, 0), true},
		// The start of a cut parent's child's name: a thread so named
		// could name its children as that parent does.
		{"~84fe2e03d50dd3a1:tail", true},
		{"~84fe2e03d50dd3a1:", true},
		{"~84fe2e03d50dd3a:tail", false},
		{"~84FE2E03D50DD3A1:tail", false},
		{"~84fe2e03d50dd3a1-tail", false},
		{"x~84fe2e03d50dd3a1:tail", false},
	}
	for _, tt := range tests {
		if got := contract.MayBeChildSession(tt.id); got != tt.want {
			t.Errorf("MayBeChildSession(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
