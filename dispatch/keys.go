package dispatch

import "encoding/json"

// ApprovalKeyer is a Tool that says what a call does, so that approving
// it for the session allowlists that and not the whole tool: a shell tool
// returns the command names of the line, an HTTP tool the host. The
// runtime derives the keys once, when the model's reply arrives, and
// records them. An error, or no keys, keys the call by its exact
// arguments: approving it for the session allows only that same call
// again.
type ApprovalKeyer interface {
	Tool
	ApprovalKeys(args json.RawMessage) ([]string, error)
}

// KeyFunc derives approval keys from a call's arguments.
type KeyFunc func(args json.RawMessage) ([]string, error)

// WithApprovalKeys returns t, which should need approval, keyed by fn.
// A nil t gives nil, which a ToolBox refuses as it refuses any nil tool;
// a nil fn gives no keys, so each call is approved as itself.
func WithApprovalKeys(t Tool, fn KeyFunc) ApprovalKeyer {
	if t == nil {
		return nil
	}
	return keyedTool{Tool: t, keys: fn}
}

type keyedTool struct {
	Tool
	keys KeyFunc
}

func (k keyedTool) ApprovalKeys(args json.RawMessage) ([]string, error) {
	if k.keys == nil {
		return nil, nil
	}
	return k.keys(args)
}
