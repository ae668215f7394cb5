package conductor

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/batonrt/baton/contract"
)

// Hooks let the host watch and shape a run. Every hook is optional. A
// hook that fails or panics is logged and ignored: the run goes on as if
// it were not there. Hooks that take a context must return once it is
// done; the model and tool hooks run on the run's own goroutines, and
// OnRunEnd on the agent's, so it should be quick.
type Hooks struct {
	// BeforeModel may rewrite the request about to be sent.
	BeforeModel func(ctx context.Context, req *contract.ModelRequest) error
	// AfterModel sees the model's answer (ModelReplied or ModelFailed)
	// before it is recorded.
	AfterModel func(ctx context.Context, sig contract.Signal) error
	// BeforeTool may block a call; a non-empty reason is what the model
	// receives as the call's error result.
	BeforeTool func(ctx context.Context, call contract.ToolCall) (block string, err error)
	// AfterTool may rewrite the outcome; the rewritten one is recorded.
	AfterTool func(ctx context.Context, call contract.ToolCall, out *contract.ToolOutcome) error
	// OnCompaction sees each summary that replaced older history.
	OnCompaction func(ctx context.Context, summary string)
	// OnRunEnd sees each run's terminal snapshot.
	OnRunEnd func(ctx context.Context, snap contract.RunSnapshot)
}

// callHook runs fn, turning a panic or error into a log line.
func callHook(log *slog.Logger, name string, fn func() error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("conductor: hook panicked", "hook", name, "panic", fmt.Sprint(p))
		}
	}()
	if err := fn(); err != nil {
		log.Warn("conductor: hook failed", "hook", name, "err", err)
	}
}
