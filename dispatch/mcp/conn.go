package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// conn is one connection to a server; for a command, one run of it.
type conn struct {
	session *sdk.ClientSession
	cmd     *commandTransport // nil for a server over HTTP
	exited  chan struct{}     // closed once the connection has ended
	why     string            // how it ended; read after exited
	done    chan struct{}     // closed once watch has returned
}

func (s *Source) newConn() *conn {
	return &conn{exited: make(chan struct{}), done: make(chan struct{})}
}

// dial starts or reaches the server and completes the MCP handshake; ctx
// bounds the handshake only. When it fails, why says how a command
// ended, if it did.
func (s *Source) dial(ctx context.Context, c *conn) error {
	var t sdk.Transport
	if s.srv.URL == "" {
		c.cmd = newCommandTransport(s.srv, s.skippedLines())
		t = c.cmd
	} else {
		t = s.httpTransport()
	}
	session, err := s.client.Connect(ctx, t, nil)
	if err != nil {
		if c.cmd != nil {
			// The SDK does not stop the command on every failure.
			c.cmd.stop()
			if c.why = c.cmd.ended(); c.why != "" {
				return fmt.Errorf("%w (%s)", err, c.why)
			}
		}
		return err
	}
	c.session = session
	go s.watch(c)
	return nil
}

func (s *Source) httpTransport() sdk.Transport {
	c := s.srv.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	if len(s.srv.Header) > 0 {
		wrapped := *c
		// check made sure the URL parses.
		u, _ := url.Parse(s.srv.URL)
		wrapped.Transport = headerTransport{host: strings.ToLower(u.Hostname()), header: s.srv.Header, next: c.Transport}
		c = &wrapped
	}
	return &sdk.StreamableClientTransport{Endpoint: s.srv.URL, HTTPClient: c}
}

// watch waits for the connection to end and logs an end the host did
// not ask for.
func (s *Source) watch(c *conn) {
	defer close(c.done)
	c.why = fmt.Sprint(c.session.Wait())
	if c.cmd != nil {
		if ended := c.cmd.ended(); ended != "" {
			c.why = ended
		}
	}
	// Closing what already ended releases what the SDK holds for the
	// session and the command's pipes, and stops a command that
	// lingers, so that it does not run alongside the one a restart
	// starts.
	c.session.Close()
	s.mu.Lock()
	closed, next := s.closed, ""
	if !closed {
		s.lastEnd, s.lastEnded = c.why, time.Now()
		if s.restarts() {
			next = s.endedWords(s.lastEnded)
		}
	}
	s.mu.Unlock()
	close(c.exited)
	switch {
	case closed:
	case s.restarts():
		s.log.Error("mcp: server connection ended; "+next, "server", s.srv.Name, "err", c.why)
	default:
		s.log.Error("mcp: server connection ended; its tools give error results", "server", s.srv.Name, "err", c.why)
	}
}

// ended reports whether the connection has ended.
func (c *conn) ended() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// gone is the error of a call on an ended connection.
func (c *conn) gone(server string) error {
	return fmt.Errorf("mcp: server %q is gone (%s)", server, c.why)
}

// close ends the connection (a command gets its stdin closed, then a
// SIGTERM if it lingers) and waits for it to end.
func (c *conn) close() error {
	if c.cmd != nil {
		// Stopped first, as the session's Close would stop it, but
		// before that Close waits for a write under way: one to a server
		// that stopped reading would never end.
		c.cmd.stop()
	}
	err := c.session.Close()
	<-c.done
	return err
}

// connectionEndWait bounds how long a failed call waits to learn whether
// the connection ended under it.
const connectionEndWait = 3 * time.Second

// endedUnder reports why the connection ended when a call's failure (not
// an error the server answered) is the connection ending, so that the
// call says the server is gone and why rather than "EOF"; else nil.
func (c *conn) endedUnder(server string, callErr error) error {
	var answered *jsonrpc.Error
	if errors.As(callErr, &answered) {
		return nil
	}
	// Over HTTP a failed request need not end the session (a refused
	// connection may be a blip), but a session the server no longer
	// knows, or a connection the SDK closed, has.
	if c.cmd == nil && !errors.Is(callErr, sdk.ErrSessionMissing) && !errors.Is(callErr, sdk.ErrConnectionClosed) {
		return nil
	}
	timer := time.NewTimer(connectionEndWait)
	defer timer.Stop()
	select {
	case <-c.exited:
		return c.gone(server)
	case <-timer.C:
		return nil
	}
}
