package postgres

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync/atomic"
)

// cancelRequestCode opens the message a driver sends, on a connection
// of its own, to ask the server to cancel a statement.
const cancelRequestCode = 80877102

// cancelLosingDialer dials as the driver would, but the connections it
// makes lose a cancel request, as a network may: the server never hears
// it, and the driver, waiting for the server to close the connection,
// sees it closed at once. It sees the request only on connections in
// plain text.
type cancelLosingDialer struct {
	lost chan struct{} // a cancel request was lost
}

func newCancelLosingDialer() *cancelLosingDialer {
	return &cancelLosingDialer{lost: make(chan struct{}, 1)}
}

func (d *cancelLosingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &cancelLosingConn{Conn: c, d: d}, nil
}

type cancelLosingConn struct {
	net.Conn
	d     *cancelLosingDialer
	wrote atomic.Bool
	lost  atomic.Bool
}

// Write looks at the first message only: a cancel request is the whole
// of its connection, and the bytes of a later message may match by
// chance.
func (c *cancelLosingConn) Write(p []byte) (int, error) {
	if !c.wrote.Swap(true) && len(p) >= 8 && binary.BigEndian.Uint32(p[4:8]) == cancelRequestCode {
		c.lost.Store(true)
		select {
		case c.d.lost <- struct{}{}:
		default:
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *cancelLosingConn) Read(p []byte) (int, error) {
	if c.lost.Load() {
		return 0, io.EOF
	}
	return c.Conn.Read(p)
}
