package turn

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/batonrt/baton/contract"
)

// stream runs one stream of the provider into ctx. A provider that
// panics failed its call, as a tool that panics does: the panic comes
// back as a provider error naming its value, not retried, and the stack
// goes to the log only. Left to unwind, it would take down the caller's
// goroutine, which for an agent is one its run waits on.
func (d *Driver) stream(ctx *attemptCtx, req *contract.ModelRequest) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked(r)
			d.o.Logger.LogAttrs(ctx, slog.LevelError, "turn: provider panicked",
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	d.p.Stream(ctx, *req)(ctx.yield)
	return nil
}

// complete is Completer.Complete, a panic of it made an error as in
// stream.
func (d *Driver) complete(ctx context.Context, c Completer, req *contract.ModelRequest) (chunks []Chunk, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicked(r)
			d.o.Logger.LogAttrs(ctx, slog.LevelError, "turn: provider panicked",
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	return c.Complete(ctx, *req)
}

func panicked(r any) error {
	return &ProviderError{Failure: contract.FailOther, Message: fmt.Sprintf("provider panicked: %v", r)}
}
