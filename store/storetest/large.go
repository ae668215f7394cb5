package storetest

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// largeResult is the size of the tool result largeNode stores: its node
// is just under the 16 MiB an export carries, the largest node every
// store must hold and move whole.
const largeResult = 16<<20 - 4<<10

// largeNode appends a tool result of nearly 16 MiB, reads it back
// through Records and Node, verifies the store, and moves it through
// Export and Import.
func largeNode(ctx context.Context, st store.Store) error {
	recs := Script("big", 4)
	settled := recs[3].Signal.(contract.ToolSettled)
	settled.Outcome.Content = strings.Repeat("x", largeResult)
	recs[3].Signal = settled
	head, err := st.Append(ctx, "s", recs...)
	if err != nil {
		return fmt.Errorf("st.Append of a %d-byte tool result: %w", largeResult, err)
	}
	got, err := st.Records(ctx, "s")
	if err != nil {
		return fmt.Errorf("st.Records: %w", err)
	}
	if err := diff("records", recs, got); err != nil {
		return err
	}
	if n, err := st.Node(ctx, head); err != nil || n.Record.Step != 4 {
		return fmt.Errorf("st.Node(head) = step %d, %v; want step 4", n.Record.Step, err)
	}
	if err := st.Verify(ctx); err != nil {
		return fmt.Errorf("st.Verify: %w", err)
	}
	var buf bytes.Buffer
	if err := st.Export(ctx, &buf, "s"); err != nil {
		return fmt.Errorf("st.Export: %w", err)
	}
	dst := store.NewMemory()
	if _, err := dst.Import(ctx, &buf); err != nil {
		return fmt.Errorf("st.Import of the export: %w", err)
	}
	got, err = dst.Records(ctx, "s")
	if err != nil {
		return fmt.Errorf("records of the import: %w", err)
	}
	return diff("imported records", recs, got)
}
