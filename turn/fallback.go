package turn

import (
	"context"
	"fmt"
	"time"

	"github.com/batonrt/baton/contract"
)

// Completer is a Provider that can also answer a call without streaming.
// The driver falls back to it when a stream fails before its first chunk,
// which some servers (local ones above all) do on streaming alone.
type Completer interface {
	Provider
	// Complete answers req in one response, as the chunks a stream of
	// the same reply would hold.
	Complete(ctx context.Context, req contract.ModelRequest) ([]Chunk, error)
}

// fallback tries the call once more without streaming when the stream
// failed before its first chunk in a way that blames streaming itself (a
// broken or empty stream, or no first chunk in time) and the provider
// offers it. Failures a plain request would share (auth, a bad request, a
// rate limit, a server error) go to the usual retries instead. It returns
// whether it made the plain call, which a run makes at most once, so that
// a server that never answers costs the attempts the retry count allows
// and one more, not twice as many; and the error to go on with: nil when
// the fallback answered into a, which is then rebuilt for it.
func (d *Driver) fallback(outer context.Context, deadline time.Time, total func() context.Context, req *contract.ModelRequest, err error, a *assembler, publish func(*contract.RunEvent)) (bool, error) {
	c, ok := d.p.(Completer)
	if !ok || d.o.NoFallback || a.chunks > 0 || passed(deadline) {
		return false, err
	}
	pe := d.classify(outer, deadline, err)
	if pe == nil {
		return false, err
	}
	if pe.Failure != contract.FailStream && pe.Failure != contract.FailTimeout {
		return false, err
	}
	if publish != nil {
		publish(&contract.RunEvent{Kind: contract.EvModelRetry, Text: pe.Error() + "; trying once without streaming", At: d.o.Now()})
	}
	ctx := total()
	// The server did not start answering in time: the plain call's whole
	// reply is its first chunk and gets as long (or, with that timeout
	// off, as long as a stall), or the timeout would not bound a silent
	// server at all. A negative timeout is off, not already expired.
	limit := d.o.FirstChunkTimeout
	if limit < 0 {
		limit = d.o.IdleTimeout
	}
	if pe.Failure == contract.FailTimeout && limit >= 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	chunks, cerr := d.complete(ctx, c, req)
	if cerr != nil {
		if ctx.Err() != nil && outer.Err() == nil && !passed(deadline) {
			return true, &ProviderError{Failure: contract.FailTimeout, Message: fmt.Sprintf("no reply within %s without streaming either", limit)}
		}
		return true, cerr
	}
	a.reset(a.known, a.now, a.publish)
	a.textCalls = d.o.TextToolCalls
	for _, ch := range chunks {
		if aerr := a.add(ch); aerr != nil {
			return true, &ProviderError{Failure: contract.FailStream, Message: "malformed reply", Err: aerr}
		}
	}
	if !a.stopped {
		return true, &ProviderError{Failure: contract.FailStream, Message: "reply without a stop"}
	}
	return true, nil
}
