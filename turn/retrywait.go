package turn

import (
	"fmt"
	"time"
)

// refuseWait says why the call does not wait wait before its next
// attempt, having waited waited between attempts already, or "" when it
// may: the wait is longer than MaxRetryWait, would take the waits past
// RetryBudget, or would outlast the total deadline. The reason names the
// wait the server asked for, when it asked for one, so the caller hears
// of the rate limit now rather than of a timeout after it.
func (o Options) refuseWait(pe *ProviderError, wait, waited time.Duration, deadline time.Time) string {
	asked, which := fmt.Sprintf("backing off %s", wait), ""
	if pe.RetryAfter > 0 {
		asked, which = fmt.Sprintf("the server asked to wait %s", wait), ", which"
	}
	switch {
	case o.MaxRetryWait > 0 && wait > o.MaxRetryWait:
		return fmt.Sprintf("%s, more than the longest wait allowed (%s)", asked, o.MaxRetryWait)
	case o.RetryBudget > 0 && wait > o.RetryBudget-waited:
		return fmt.Sprintf("%s%s would take this call's waits to %s, past its retry budget (%s)", asked, which, sum(waited, wait), o.RetryBudget)
	case !deadline.IsZero() && time.Until(deadline) < wait:
		return fmt.Sprintf("%s%s would outlast the call's total timeout (%s)", asked, which, o.TotalTimeout)
	}
	return ""
}

// sum adds two non-negative durations, saturating rather than wrapping.
func sum(a, b time.Duration) time.Duration {
	if a > time.Duration(1<<63-1)-b {
		return time.Duration(1<<63 - 1)
	}
	return a + b
}
