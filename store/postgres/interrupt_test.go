package postgres

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// hookTracer calls, once, the hook armed for the first statement that
// begins with its prefix, as the statement starts.
type hookTracer struct {
	prefix atomic.Pointer[string]
	hook   func(conn *pgx.Conn)
}

func (h *hookTracer) arm(prefix string, hook func(conn *pgx.Conn)) {
	h.hook = hook
	h.prefix.Store(&prefix)
}

func (h *hookTracer) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	p := h.prefix.Load()
	if p != nil && strings.HasPrefix(strings.TrimSpace(data.SQL), *p) && h.prefix.CompareAndSwap(p, nil) {
		h.hook(conn)
	}
	return ctx
}

func (h *hookTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A commit cut short at any point (its context cancelled, its connection
// killed, before the statement reaches the server or after the server
// committed it and before the answer came back) fails, with the
// context's error or ErrIO so a caller can tell a cancelled request from
// a failed database (or, once the server committed, succeeds when the
// answer came back after all), and leaves the session either without the record
// or with it exactly once: a retry of the same record never commits it
// twice, the next record lands after it, and nothing acknowledged is
// lost.
func TestCommitInterrupted(t *testing.T) {
	const (
		commitStatement = "WITH owner AS"
		txCommit        = "commit"
		txLock          = "SELECT pg_try_advisory_xact_lock"
	)
	for _, tc := range []struct {
		name   string
		locked bool
		at     string
		kill   bool // else cancel
		after  bool // once the server committed; else before it got the statement
		want   error
		landed bool
	}{
		{name: "locked/cancel before the statement", locked: true, at: commitStatement, want: context.Canceled},
		{name: "locked/kill before the statement", locked: true, at: commitStatement, kill: true, want: store.ErrIO},
		{name: "locked/cancel after the server committed", locked: true, at: commitStatement, after: true, want: context.Canceled, landed: true},
		{name: "locked/connection lost after the server committed", locked: true, at: commitStatement, kill: true, after: true, want: store.ErrIO, landed: true},
		{name: "unlocked/cancel at the transaction lock", at: txLock, want: context.Canceled},
		{name: "unlocked/kill at the transaction lock", at: txLock, kill: true, want: store.ErrIO},
		{name: "unlocked/kill before the statement", at: commitStatement, kill: true, want: store.ErrIO},
		{name: "unlocked/kill at commit", at: txCommit, kill: true, want: store.ErrIO},
		{name: "unlocked/cancel after the server committed", at: txCommit, after: true, want: context.Canceled, landed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := pgtest.SchemaURL(t)
			admin := pgtest.Admin(t)
			tr := &hookTracer{}
			var conns connSet
			d := &stallingDialer{reading: make(chan struct{}, 1), cut: make(chan struct{}), resume: make(chan struct{})}
			b := openBackendWith(t, url, func(cfg *pgxpool.Config) {
				cfg.ConnConfig.Tracer = tr
				cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
					c, err := d.dial(ctx, network, addr)
					if err == nil {
						conns.add(c)
					}
					return c, err
				}
				cfg.MaxConns = 1
			})
			st := store.New(b)
			defer st.Close()
			ctx := t.Context()
			if tc.locked {
				release, err := st.Lock(ctx, "s")
				if err != nil {
					t.Fatal(err)
				}
				defer release()
			}
			recs := storetest.Script("r", 4)
			// One at a time, and on one connection, so that the statement
			// cut short is prepared already: what the server answers is
			// then the commit's result alone.
			if _, err := st.Append(ctx, "s", recs[0]); err != nil {
				t.Fatal(err)
			}
			head, err := st.Append(ctx, "s", recs[1])
			if err != nil {
				t.Fatal(err)
			}
			actx, cancel := context.WithCancel(ctx)
			defer cancel()
			kill := func(conn *pgx.Conn) {
				if _, err := admin.Exec(context.Background(), `SELECT pg_terminate_backend($1, 5000)`, conn.PgConn().PID()); err != nil {
					t.Errorf("terminate: %v", err)
				}
			}
			cut := func(conn *pgx.Conn) {
				if tc.kill {
					kill(conn)
				} else {
					cancel()
				}
			}
			if tc.after {
				tr.arm(tc.at, func(*pgx.Conn) { d.stall.Store(true) })
				go func() {
					// Once the head moved, the server has committed, and
					// the answer waits beneath the stall.
					waitForHeadMove(t, admin, searchPath(t, url), head)
					if tc.kill {
						// The server's answer sits in this side's buffers:
						// the connection is lost from here.
						conns.closeAllBut(ownerNetConn(b))
						close(d.resume)
						return
					}
					cancel()
				}()
			} else {
				tr.arm(tc.at, cut)
			}
			_, err = st.Append(actx, "s", recs[2])
			d.stall.Store(false)
			if tc.after && !tc.kill {
				close(d.resume)
			}
			// Cut short after the server committed, the append may still
			// read the answer waiting for it, and rightly report success.
			if (err != nil || !tc.after) && !errors.Is(err, tc.want) {
				t.Fatalf("append cut short: got %v, want %v", err, tc.want)
			}
			if errors.Is(tc.want, context.Canceled) && errors.Is(err, store.ErrIO) {
				t.Fatalf("append whose context was cancelled: got %v, an i/o error", err)
			}

			n := 2
			if tc.landed {
				n = 3
			}
			other := store.New(openBackend(t, url))
			defer other.Close()
			got, err := other.Records(ctx, "s")
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(recs[:n], got); d != "" {
				t.Fatalf("records after the cut (-want +got):\n%s", d)
			}
			_, err = st.Append(ctx, "s", recs[2])
			if tc.landed && !errors.Is(err, store.ErrInvalid) {
				t.Fatalf("retry of the record the server committed: got %v, want ErrInvalid (step out of sequence)", err)
			}
			if !tc.landed && err != nil {
				t.Fatalf("retry of the record the server never committed: %v", err)
			}
			if _, err := st.Append(ctx, "s", recs[3]); err != nil {
				t.Fatalf("append after the retry: %v", err)
			}
			got, err = other.Records(ctx, "s")
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(recs, got); d != "" {
				t.Fatalf("records at the end (-want +got):\n%s", d)
			}
		})
	}
}

// waitForHeadMove waits until the session's head, read on the admin
// connection from schema, is no longer head.
func waitForHeadMove(t *testing.T, admin *pgx.Conn, schema string, head store.Hash) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var raw []byte
		err := admin.QueryRow(context.Background(), `SELECT hash FROM `+schema+`.baton_refs WHERE kind = 'heads' AND session = 's'`).Scan(&raw)
		if err == nil && string(raw) != string(head[:]) {
			return
		}
	}
	t.Errorf("the head never moved")
}

// connSet keeps the connections a dialer made, to cut them all.
type connSet struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (s *connSet) add(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns = append(s.conns, c)
}

// closeAllBut closes every connection but keep.
func (s *connSet) closeAllBut(keep net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		if c != keep {
			_ = c.Close()
		}
	}
}

// ownerNetConn returns the network connection under the backend's owner
// connection, or nil.
func ownerNetConn(b *Backend) net.Conn {
	b.ownerMu.Lock()
	defer b.ownerMu.Unlock()
	if b.owner == nil {
		return nil
	}
	return b.owner.PgConn().Conn()
}
