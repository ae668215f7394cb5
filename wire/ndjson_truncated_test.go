package wire

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// TestNDJSONToolResultSaysOutputWasCut: baton's own stream sends a cut
// tool result with "truncated": true, and a whole one without the field.
func TestNDJSONToolResultSaysOutputWasCut(t *testing.T) {
	tests := []struct {
		name      string
		truncated bool
		want      map[string]any
	}{
		{"whole output", false, map[string]any{}},
		{"cut output", true, map[string]any{"truncated": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := &ndjsonWriter{w: &buf}
			ev := wt.With(wt.Ev(5, 0, contract.EvToolResult), func(e *contract.RunEvent) {
				e.Call, e.Result, e.Truncated = &wt.CallA, &wt.ResultA, tt.truncated
			})
			if err := w.writeEvent(ev); err != nil {
				t.Fatal(err)
			}
			var line map[string]any
			if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
				t.Fatalf("line %q: %v", buf.Bytes(), err)
			}
			got := map[string]any{}
			if v, ok := line["truncated"]; ok {
				got["truncated"] = v
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("truncated field mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
