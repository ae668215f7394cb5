package contract_test

import (
	"testing"

	"github.com/batonrt/baton/contract"
)

func TestRunErrorPlain(t *testing.T) {
	tests := []struct {
		err  *contract.RunError
		want string
	}{
		{nil, "failed for an unknown reason"},
		{&contract.RunError{Kind: contract.KindAborted, Message: "aborted by host"}, "stopped"},
		{&contract.RunError{Kind: contract.KindModel, Message: "rate_limited: turn: provider rate_limited (status 429): openai: slow down"}, "the model failed: rate limited (HTTP 429): openai: slow down"},
		{&contract.RunError{Kind: contract.KindModel, Message: "timeout: turn: provider timeout: no first chunk within 150ms"}, "the model failed: timeout: no first chunk within 150ms"},
		{&contract.RunError{Kind: contract.KindModel, Message: "turn: provider auth (status 401)"}, "the model failed: auth (HTTP 401)"},
		{&contract.RunError{Kind: contract.KindModel, Message: "the reply was empty"}, "the model failed: the reply was empty"},
		{&contract.RunError{Kind: contract.KindStore, Message: "store: lock lost"}, "store: store: lock lost"},
	}
	for _, tt := range tests {
		if got := tt.err.Plain(); got != tt.want {
			t.Errorf("%+v.Plain() = %q, want %q", tt.err, got, tt.want)
		}
	}
}
