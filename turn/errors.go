package turn

import (
	"fmt"
	"time"

	"github.com/batonrt/baton/contract"
)

// ProviderError is a failed model call as a provider saw it. Providers
// return it so the driver can classify the failure and honour RetryAfter.
type ProviderError struct {
	Failure contract.FailureKind
	// Status is the HTTP status, when there was one.
	Status int
	// RetryAfter is the server's requested wait, when it gave one.
	RetryAfter time.Duration
	Message    string
	Err        error
}

func (e *ProviderError) Error() string {
	s := "turn: provider " + string(e.Failure)
	if e.Status != 0 {
		s += fmt.Sprintf(" (status %d)", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *ProviderError) Unwrap() error { return e.Err }

// Retryable reports whether another attempt may succeed: rate limits,
// server errors, network failures, broken streams and timeouts.
func (e *ProviderError) Retryable() bool {
	switch e.Failure {
	case contract.FailRateLimited, contract.FailServer, contract.FailNetwork, contract.FailStream, contract.FailTimeout:
		return true
	}
	return false
}
