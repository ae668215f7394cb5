package wire_test

import (
	"context"
	"fmt"

	"github.com/batonrt/baton/wire"
)

func ExampleNewRunnerHandler() {
	h := wire.NewRunnerHandler(func(ctx context.Context, threadID string) (wire.Runner, error) {
		return nil, wire.ErrUnknownThread // a real factory returns wire.AgentRunner(agent)
	}, wire.HandlerOptions{})
	defer h.Close()
	fmt.Printf("%T\n", h)
	// Output: *wire.Handler
}
