package postgres

import (
	"context"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// holdRefRead holds the first read of a ref, once armed, after the server
// answered it and before the backend sees the answer: a reader that the
// scheduler or the network slowed down.
type holdRefRead struct{ holdOnce }

func (h *holdRefRead) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (h *holdRefRead) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	if strings.HasPrefix(d.CommandTag.String(), "SELECT") {
		h.hold()
	}
}

// A read of the head by an owner (Head, Records, a subscriber's catch-up)
// that overlaps the owner's first append after taking the lock must not
// leave the owner's cached head behind the server's: the next append
// would build on the stale head and be refused with "record step 3 after
// step 1" (and keep being refused until the lock is let go).
func TestOwnerReadOverlappingAppendKeepsHeadCurrent(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	tr := &holdRefRead{newHoldOnce()}
	b := openBackendWith(t, url, func(cfg *pgxpool.Config) { cfg.ConnConfig.Tracer = tr })
	st := store.New(b)
	defer st.Close()
	recs := storetest.Script("r", 3)
	if _, err := st.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	// Only the reader's query is held: it must be the next SELECT.
	tr.arm()
	done := make(chan error, 1)
	go func() {
		_, err := st.Head(ctx, "s")
		done <- err
	}()
	<-tr.reached
	h2, err := st.Append(ctx, "s", recs[1])
	if err != nil {
		t.Fatal(err)
	}
	close(tr.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, err := st.Head(ctx, "s"); err != nil || got != h2 {
		t.Errorf("head = %s, %v; want %s, the head the owner's append made", got, err, h2)
	}
	if _, err := st.Append(ctx, "s", recs[2]); err != nil {
		t.Errorf("append after an overlapping read: %v", err)
	}
}
