package httpfail

import (
	"testing"

	"github.com/batonrt/baton/contract"
)

// TestTransientClientStatuses: 409 (OpenAI's "lock timeout" on a busy
// resource, which its SDK and Anthropic's retry) and 425 Too Early both
// ask the client to send the same request again later; classing them as
// invalid requests ended the turn on a failure a retry cures.
func TestTransientClientStatuses(t *testing.T) {
	for _, status := range []int{409, 425} {
		if got := StatusKind(status, "try again"); got != contract.FailServer {
			t.Errorf("StatusKind(%d) = %s, want %s", status, got, contract.FailServer)
		}
	}
}
