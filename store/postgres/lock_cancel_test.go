package postgres

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/jackc/pgx/v5/pgxpool"
)

// stallingDialer makes connections whose reads, while stall is set, wait
// for the test to resume them or the driver to give up on the connection
// (pgx sets a deadline when a statement's context ends): a slow network.
type stallingDialer struct {
	stall   atomic.Bool
	reading chan struct{} // a read began stalled
	cut     chan struct{} // the driver gave up on a stalled connection
	cutOnce sync.Once
	resume  chan struct{}
}

func (d *stallingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &stallingConn{Conn: c, d: d, gaveUp: make(chan struct{})}, nil
}

type stallingConn struct {
	net.Conn
	d      *stallingDialer
	once   sync.Once
	gaveUp chan struct{}
}

func (c *stallingConn) Read(p []byte) (int, error) {
	if c.d.stall.Load() {
		select {
		case c.d.reading <- struct{}{}:
		default:
		}
		select {
		case <-c.gaveUp:
		case <-c.d.resume:
		}
	}
	return c.Conn.Read(p)
}

// SetDeadline sets the deadline before it wakes a stalled read: woken
// first, the read could take the server's answer, which sits ready
// beneath the stall, and the driver would never see its connection fail.
func (c *stallingConn) SetDeadline(t time.Time) error {
	err := c.Conn.SetDeadline(t)
	if !t.IsZero() {
		c.once.Do(func() { close(c.gaveUp) })
		if c.d.stall.Load() {
			c.d.cutOnce.Do(func() { close(c.d.cut) })
		}
	}
	return err
}

// A Lock whose context ends while the server has not answered yet (a
// request given up, a slow network) must not close the connection that
// holds the backend's other locks: every session it owns would be free
// for another process to take while it still drives them.
func TestCancelledLockKeepsOtherLocks(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	d := &stallingDialer{reading: make(chan struct{}, 1), cut: make(chan struct{}), resume: make(chan struct{})}
	a := openBackendWith(t, url, func(cfg *pgxpool.Config) { cfg.ConnConfig.DialFunc = d.dial })
	defer a.Close()
	other := openBackend(t, url)
	defer other.Close()
	if _, err := a.Lock(ctx, "s"); err != nil {
		t.Fatal(err)
	}

	d.stall.Store(true)
	short, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := a.Lock(short, "t")
		done <- err
	}()
	<-d.reading
	cancel()
	// Given the time to give up on the connection, if it does.
	select {
	case <-d.cut:
	case <-time.After(time.Second):
	}
	d.stall.Store(false)
	close(d.resume)
	if err := <-done; err == nil {
		t.Error("lock outlived its context")
	}

	if _, err := other.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("lock of the first owner's session after its cancelled lock of another: got %v, want ErrLocked", err)
	}
	l, err := other.Lock(ctx, "t")
	if err != nil {
		t.Fatalf("lock of the session whose lock was cancelled: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}
