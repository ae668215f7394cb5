package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/batonrt/baton/contract"
)

// Tool is something the model can call.
type Tool interface {
	Descriptor() contract.ToolDescriptor
	// Call runs the tool. A returned error becomes an error outcome whose
	// content is the error's text, so it should be written for the model.
	Call(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error)
}

// Option adjusts a tool's descriptor.
type Option func(*contract.ToolDescriptor)

// Idempotent marks a tool safe to run again on resume with the same call id.
func Idempotent() Option { return func(d *contract.ToolDescriptor) { d.Idempotent = true } }

// NeedsApproval marks a tool that waits for an approval before it runs.
func NeedsApproval() Option { return func(d *contract.ToolDescriptor) { d.NeedsApproval = true } }

// Sequential marks a tool that never runs beside another tool.
func Sequential() Option { return func(d *contract.ToolDescriptor) { d.Sequential = true } }

// OwnGoroutine marks a tool whose calls always run on a goroutine of
// their own, never on one a Job's Here offers: for a tool that may not
// return when its context ends.
func OwnGoroutine() Option { return func(d *contract.ToolDescriptor) { d.OwnGoroutine = true } }

// Timeout bounds each call of the tool, overriding the scheduler's default.
func Timeout(d time.Duration) Option { return func(t *contract.ToolDescriptor) { t.Timeout = d } }

// RawFunc is the untyped shape of a tool's body.
type RawFunc func(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error)

// NewTool returns a Tool with a hand-written descriptor, for tools whose
// arguments are not one Go type. It checks the descriptor as Func does,
// but validates no arguments: fn gets them as the model wrote them.
func NewTool(d contract.ToolDescriptor, fn RawFunc) (Tool, error) {
	if fn == nil {
		return nil, fmt.Errorf("%w %q: nil function", ErrInvalidTool, d.Name)
	}
	if err := checkDescriptor(d); err != nil {
		return nil, err
	}
	if len(d.InputSchema) > 0 && !json.Valid(d.InputSchema) {
		return nil, fmt.Errorf("%w %q: input schema is not valid JSON", ErrInvalidTool, d.Name)
	}
	return &rawTool{d: d, fn: fn}, nil
}

type rawTool struct {
	d  contract.ToolDescriptor
	fn RawFunc
}

func (t *rawTool) Descriptor() contract.ToolDescriptor { return t.d }

func (t *rawTool) Call(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
	return t.fn(ctx, args)
}

func checkDescriptor(d contract.ToolDescriptor) error {
	if !contract.ValidToolName(d.Name) {
		return fmt.Errorf("%w: name %q must be 1 to 64 of [a-zA-Z0-9_-]", ErrInvalidTool, d.Name)
	}
	if d.Timeout < 0 {
		return fmt.Errorf("%w %q: negative timeout %v", ErrInvalidTool, d.Name, d.Timeout)
	}
	return nil
}
