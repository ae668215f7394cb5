package turn

import (
	"errors"
	"io"
	"log/slog"
	"net"
	"syscall"
	"time"

	"github.com/batonrt/baton/contract"
)

// classifyTransport names a failure that did not come as a ProviderError:
// a broken stream, a reset connection, or something unknown (final).
func classifyTransport(err error) *ProviderError {
	var ne net.Error
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &ProviderError{Failure: contract.FailStream, Message: "stream broken", Err: err}
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed):
		return &ProviderError{Failure: contract.FailNetwork, Message: "connection failed", Err: err}
	case errors.As(err, &ne) && ne.Timeout():
		return &ProviderError{Failure: contract.FailTimeout, Message: "network timeout", Err: err}
	case errors.As(err, &ne):
		return &ProviderError{Failure: contract.FailNetwork, Message: "network error", Err: err}
	}
	return &ProviderError{Failure: contract.FailOther, Err: err}
}

// FailureForStatus maps an HTTP status to a failure kind, for providers
// that get a status without a more precise error body; it says what the
// HTTP providers say of such a status (turn/httpfail). 402 is the
// account's failure, which no wait cures; 409 and 425 are the server's,
// which a retry may get past.
func FailureForStatus(status int) contract.FailureKind {
	switch {
	case status == 429:
		return contract.FailRateLimited
	case status == 401 || status == 402 || status == 403:
		return contract.FailAuth
	case status == 408:
		return contract.FailTimeout
	case status == 413:
		return contract.FailContextOverflow
	case status >= 500, status == 409, status == 425:
		return contract.FailServer
	case status >= 400:
		return contract.FailInvalidRequest
	}
	return contract.FailOther
}

func slogAttrs(attempt int, wait time.Duration, pe *ProviderError) []slog.Attr {
	return []slog.Attr{
		slog.Int("attempt", attempt),
		slog.Duration("wait", wait),
		slog.String("failure", string(pe.Failure)),
		slog.Int("status", pe.Status),
		slog.String("error", pe.Error()),
	}
}
