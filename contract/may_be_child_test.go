package contract_test

import (
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
	}
	for _, tt := range tests {
		if got := contract.MayBeChildSession(tt.id); got != tt.want {
			t.Errorf("MayBeChildSession(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}
