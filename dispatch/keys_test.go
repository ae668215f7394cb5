package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

// TestWithApprovalKeysMisuse: a missing tool or key function is an
// error where the tool is used, never a panic: a nil tool is refused by
// the tool box as any nil tool is, and a nil key function gives no keys,
// so each call is approved as itself.
func TestWithApprovalKeysMisuse(t *testing.T) {
	t.Run("nil tool", func(t *testing.T) {
		k := WithApprovalKeys(nil, func(json.RawMessage) ([]string, error) { return []string{"k"}, nil })
		if _, err := NewToolBox(k); !errors.Is(err, ErrInvalidTool) {
			t.Errorf("NewToolBox = %v, want ErrInvalidTool", err)
		}
	})
	t.Run("nil key function", func(t *testing.T) {
		tool := MustFunc("a", "", func(context.Context, struct{}) (string, error) { return "", nil })
		keys, err := WithApprovalKeys(tool, nil).ApprovalKeys(json.RawMessage(`{}`))
		if err != nil || len(keys) != 0 {
			t.Errorf("ApprovalKeys = %q, %v; want no keys", keys, err)
		}
	})
}
