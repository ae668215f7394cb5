package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"

	"github.com/batonrt/baton/store"
)

// forwardedHeader marks a request that one handler handed to another.
// The receiver serves it or answers 421 Misdirected Request; it never
// hands it on, so two handlers that each think the other drives a
// thread cannot pass a request back and forth.
const forwardedHeader = "Baton-Forwarded"

// forwardTries bounds how often a request for a thread driven elsewhere
// looks for its driver: the owner advertised may be a moment out of date
// (it is changing hands, or it just died and its lock is being freed).
const forwardTries = 20

// errMisdirected is the receiver's 421: it does not drive the thread
// either.
var errMisdirected = errors.New("wire: the owner does not drive the thread")

// bodyKey holds, in a request's context, the body readBody read, so that
// a request handed to another handler carries it again.
type bodyKey struct{}

// keepBody makes room in r's context for the body readBody will read.
func keepBody(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), bodyKey{}, new([]byte)))
}

func keptBody(r *http.Request) []byte {
	if p, ok := r.Context().Value(bodyKey{}).(*[]byte); ok {
		return *p
	}
	return nil
}

// reach acquires the thread named n for the request, or, when another
// process drives the thread's session and HandlerOptions.Owner names it,
// hands the request there and relays the answer (answered is then true).
// When the owner cannot be reached because it died, its lock frees, and
// the thread opens here on a later try. A draining handler (Drain) hands
// on the requests for threads it does not hold, as it can only refuse
// those for threads nobody drives.
func (h *Handler) reach(w http.ResponseWriter, r *http.Request, n threadName) (t *thread, answered bool, code int, err error) {
	ctx := r.Context()
	for try := 1; ; try++ {
		t, code, err = h.acquire(ctx, n)
		// A draining handler opens no thread, but one another process
		// drives is no work of its own: it hands the request there.
		draining := errors.Is(err, errDraining)
		forwarded := r.Header.Get(forwardedHeader) != ""
		switch {
		case (draining || errors.Is(err, errClosed)) && forwarded:
			// The sender may open the thread itself: nothing here holds
			// it, or will once the close (a drain's end) lets it go.
			return nil, false, http.StatusMisdirectedRequest, err
		case err == nil || !(draining || errors.Is(err, store.ErrLocked)) || h.opts.Owner == nil:
			return t, false, code, err
		case forwarded:
			return nil, false, http.StatusMisdirectedRequest, err
		}
		owner, ferr := h.opts.Owner(ctx, n.key)
		if ferr == nil {
			if answered, ferr = h.forward(w, r, owner); answered {
				return nil, true, 0, nil
			}
		} else if draining {
			// No other process drives it: the thread would be new work.
			return nil, false, code, err
		}
		h.opts.Logger.Debug("wire: owner of thread not reached", "thread", n.key, "try", try, "err", ferr)
		switch {
		case try == forwardTries && draining:
			return nil, false, code, err
		case try == forwardTries:
			return nil, false, http.StatusServiceUnavailable, fmt.Errorf("wire: thread %q is driven by another process, which did not answer: %w", n.id, err)
		}
		select {
		case <-ctx.Done():
			return nil, false, http.StatusServiceUnavailable, ctx.Err()
		case <-time.After(min(time.Duration(try)*10*time.Millisecond, 100*time.Millisecond)):
		}
	}
}

// forward hands r to the handler at base and relays its answer, stream
// and all. It reports false, having written nothing, when the request
// never reached a handler that drives the thread (the owner is gone or
// refused it as misdirected), so that the caller looks again. A stream
// the owner breaks off (it died) is broken off to the client as well, so
// that the client reconnects, as it would had it talked to the owner.
func (h *Handler) forward(w http.ResponseWriter, r *http.Request, base *url.URL) (bool, error) {
	var failed error
	body := keptBody(r)
	p := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(base)
			pr.SetXForwarded()
			pr.Out.Header.Set(forwardedHeader, "1")
			// The owner serves the request as this user's, or not at all
			// (see guard): its users may not be these.
			pr.Out.Header.Set(userHeader, userOf(r))
			// The origin was checked here; the owner checks the token.
			pr.Out.Header.Del("Origin")
			if body != nil {
				pr.Out.Body = http.NoBody
				if len(body) > 0 {
					pr.Out.Body = io.NopCloser(bytes.NewReader(body))
				}
				pr.Out.ContentLength = int64(len(body))
			}
		},
		FlushInterval: -1,
		ModifyResponse: func(resp *http.Response) error {
			if resp.StatusCode == http.StatusMisdirectedRequest {
				return errMisdirected
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			failed = err
		},
		// A stream the owner broke off is reported here, not on the
		// standard logger.
		ErrorLog: slog.NewLogLogger(h.opts.Logger.Handler(), slog.LevelWarn),
	}
	// Relayed writes are bounded as a stream served here is.
	p.ServeHTTP(newDeadlineWriter(w, h.opts.WriteTimeout), r)
	switch {
	case failed == nil:
		return true, nil
	case errors.Is(failed, errMisdirected) || isDialError(failed):
		return false, failed
	case r.Context().Err() != nil:
		return true, failed
	}
	// The owner took the request and failed before answering: it may
	// have acted on it, so it is not sent again. The proxy's error names
	// the owner's address, which stays in the log.
	h.opts.Logger.Warn("wire: the owner of a thread failed to answer", "owner", base.Host, "err", failed)
	httpError(w, http.StatusBadGateway, "wire: the process that drives the thread failed to answer")
	return true, failed
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
