package dispatch

import "context"

// IDs name the call a tool is running for. CallID is the idempotency key:
// a call run again on resume carries the same one.
type IDs struct {
	CallID    string
	SessionID string
	RunID     string
	// WorkDir is the session's working directory, where relative paths
	// of the call start; empty when the host set none.
	WorkDir string
}

type idsKey struct{}

// WithIDs returns ctx carrying ids, for running a tool outside a
// Scheduler (in tests, say) the way the Scheduler would.
func WithIDs(ctx context.Context, ids IDs) context.Context {
	return context.WithValue(ctx, idsKey{}, ids)
}

// IDsFrom returns the ids ctx carries; zero outside a tool call.
func IDsFrom(ctx context.Context) IDs {
	switch v := ctx.Value(idsKey{}).(type) {
	case IDs:
		return v
	case *job:
		return IDs{CallID: v.Call.ID, SessionID: v.SessionID, RunID: v.RunID, WorkDir: v.WorkDir}
	}
	return IDs{}
}

// CallID returns the id of the call ctx belongs to, the idempotency key.
func CallID(ctx context.Context) string { return IDsFrom(ctx).CallID }

// SessionID returns the session id of the call ctx belongs to.
func SessionID(ctx context.Context) string { return IDsFrom(ctx).SessionID }

// RunID returns the run id of the call ctx belongs to.
func RunID(ctx context.Context) string { return IDsFrom(ctx).RunID }

// WorkDir returns the working directory of the session the call belongs
// to; empty when the host set none.
func WorkDir(ctx context.Context) string { return IDsFrom(ctx).WorkDir }
