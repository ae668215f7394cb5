package httpfail

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// FrameReader reads an API's error frame out of the error a stream ended
// with, returning the frame's type (and code, if any) and message; ok is
// false when err carries no frame.
type FrameReader func(err error) (typ, msg string, ok bool)

// Classifier turns failures of one provider into *turn.ProviderError.
type Classifier struct {
	// API prefixes every message, such as "openai".
	API string
	// Frame reads the API's in-stream error frames; nil reads none.
	Frame FrameReader
	// Detail reads what the API said in an error response out of the
	// error the SDK returned for it, for SDKs whose error text carries
	// only the status; nil, or a blank answer, reads err.Error() and the
	// start of the response body.
	Detail func(err error) string
	// Said reads the message of an error response out of the error the
	// SDK returned for it, for SDKs whose error text leaves it out; it
	// joins the error's text, so that a host sees why the server refused
	// (a model it does not know, a key it does not take). nil adds none.
	Said func(err error) string
	// Now reads the clock for Retry-After dates; nil means time.Now.
	Now func() time.Time
}

// Classify turns whatever ended a stream into a *turn.ProviderError. resp
// is the HTTP response when one arrived; its status and headers decide the
// kind, so a body the SDK cannot parse still classifies correctly.
func (c Classifier) Classify(ctx context.Context, resp *http.Response, err error) *turn.ProviderError {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return c.Interrupted(ctxErr)
	}
	if err == nil {
		err = errors.New("stream ended without a reason")
	}
	err = redactURLPassword(resp, err)
	err = redactSentKeys(resp, err)
	if resp != nil && resp.StatusCode >= 400 {
		return &turn.ProviderError{
			Failure:    StatusKind(resp.StatusCode, c.detail(resp, err)),
			Status:     resp.StatusCode,
			RetryAfter: RetryAfter(resp.Header, c.now()),
			Message:    c.API + ": request failed" + c.said(resp, err),
			Err:        err,
		}
	}
	if c.Frame != nil {
		if typ, msg, ok := c.Frame(err); ok {
			return &turn.ProviderError{Failure: FrameKind(typ, msg), Message: c.API + ": error frame in stream: " + msg, Err: err}
		}
	}
	if resp == nil {
		return &turn.ProviderError{Failure: transportKind(err, contract.FailNetwork), Message: c.API + ": request failed", Err: err}
	}
	return &turn.ProviderError{Failure: transportKind(err, contract.FailStream), Message: c.API + ": stream broke", Err: err}
}

// transportKind is a timeout when err is one, such as the HTTP client's
// own Timeout, which expires with the caller's context still alive, and
// otherwise kind.
func transportKind(err error, kind contract.FailureKind) contract.FailureKind {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return contract.FailTimeout
	}
	return kind
}

// said is ": " and what the server said about a failed response, or
// nothing when Said reads nothing the error's own text does not hold.
// A credential the request sent is hidden, as servers may quote it back.
func (c Classifier) said(resp *http.Response, err error) string {
	if c.Said == nil {
		return ""
	}
	msg := hideSentKeys(resp, strings.TrimSpace(c.Said(err)))
	if msg == "" || strings.Contains(err.Error(), msg) {
		return ""
	}
	return ": " + msg
}

// hideSentKeys replaces in msg each key the request sent with xxxxx.
func hideSentKeys(resp *http.Response, msg string) string {
	for _, key := range sentKeys(resp) {
		msg = strings.ReplaceAll(msg, key, "xxxxx")
	}
	return msg
}

// Interrupted classifies a cancelled call: a deadline is a timeout the
// driver may retry; a cancellation is the caller's decision and final.
func (c Classifier) Interrupted(err error) *turn.ProviderError {
	kind := contract.FailOther
	if errors.Is(err, context.DeadlineExceeded) {
		kind = contract.FailTimeout
	}
	return &turn.ProviderError{Failure: kind, Message: c.API + ": call interrupted", Err: err}
}

// BadRequest wraps an error found while building the request, before
// anything was sent.
func (c Classifier) BadRequest(err error) *turn.ProviderError {
	msg := c.API + ": bad request"
	if strings.HasPrefix(err.Error(), msg) {
		// The provider's own error says so already (its ErrBadRequest).
		msg = ""
	}
	return &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: msg, Err: err}
}

// maxDetail bounds how much of an error body is read for its message.
const maxDetail = 16 << 10

// detail is what the API said about a failed response. Servers that copy
// an API loosely answer in shapes its SDK cannot read (a top-level
// message, plain text), leaving it an empty error object; what they said
// is then only in the body.
func (c Classifier) detail(resp *http.Response, err error) string {
	if c.Detail != nil {
		if d := strings.TrimSpace(c.Detail(err)); d != "" {
			return d
		}
	}
	return err.Error() + " " + peekBody(resp)
}

// peekBody reads the start of resp's body and puts it back, so the body
// the returned error carries still reads whole.
func peekBody(resp *http.Response) string {
	if resp.Body == nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxDetail))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), resp.Body), resp.Body}
	return string(b)
}

func (c Classifier) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}
