package httpfail_test

import (
	"testing"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/httpfail"
)

// TestStatusKindAgreesWithTurn: an error status with nothing in its body
// is one failure whoever classifies it, the HTTP providers through
// StatusKind or the scripted provider and custom ones through
// turn.FailureForStatus, so a failure scripted in a test is retried, or
// not, as the real provider's would be.
func TestStatusKindAgreesWithTurn(t *testing.T) {
	for status := 400; status < 600; status++ {
		if got, want := turn.FailureForStatus(status), httpfail.StatusKind(status, ""); got != want {
			t.Errorf("status %d: turn.FailureForStatus says %s, StatusKind says %s", status, got, want)
		}
	}
}
