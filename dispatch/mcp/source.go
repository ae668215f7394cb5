package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
)

// Source is a live connection to one MCP server. It is safe for
// concurrent use.
type Source struct {
	srv     Server
	log     *slog.Logger
	session *sdk.ClientSession
	exited  chan struct{}
	cmd     *commandTransport // nil for a server over HTTP

	mu    sync.Mutex
	tools []dispatch.Tool
	stale bool // the server said its tool list changed
	// changes counts the server's tool-list change notices, so that a
	// listing answered after a notice does not clear stale.
	changes uint64
	dead    error // why the connection ended, once it has
}

// Connect starts or reaches the server and completes the MCP handshake.
// ctx bounds the handshake only; the connection lives until Close.
func Connect(ctx context.Context, srv Server) (*Source, error) {
	if err := srv.check(); err != nil {
		return nil, err
	}
	if srv.ListTimeout == 0 {
		srv.ListTimeout = DefaultListTimeout
	}
	s := &Source{srv: srv, log: srv.Logger, stale: true, exited: make(chan struct{})}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "baton", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.markStale() },
	})
	session, err := client.Connect(ctx, s.transport(), nil)
	if err != nil {
		if s.cmd != nil {
			// The SDK does not stop the command on every failure.
			s.cmd.stop()
			if why := s.cmd.ended(); why != "" {
				return nil, fmt.Errorf("mcp: connect %q: %w (the server ended: %s)", srv.Name, err, why)
			}
		}
		return nil, fmt.Errorf("mcp: connect %q: %w", srv.Name, err)
	}
	s.session = session
	go s.watch()
	return s, nil
}

func (s *Source) transport() sdk.Transport {
	if s.srv.URL == "" {
		s.cmd = newCommandTransport(s.srv)
		return s.cmd
	}
	c := s.srv.HTTPClient
	if c == nil {
		c = http.DefaultClient
	}
	if len(s.srv.Header) > 0 {
		wrapped := *c
		wrapped.Transport = headerTransport{header: s.srv.Header, next: c.Transport}
		c = &wrapped
	}
	return &sdk.StreamableClientTransport{Endpoint: s.srv.URL, HTTPClient: c}
}

// watch logs the end of a connection the host did not close.
func (s *Source) watch() {
	defer close(s.exited)
	why := fmt.Sprint(s.session.Wait())
	if s.cmd != nil {
		if ended := s.cmd.ended(); ended != "" {
			why = ended
		}
	}
	s.mu.Lock()
	closing := s.dead != nil
	if !closing {
		s.dead = fmt.Errorf("mcp: server %q is gone (%s)", s.srv.Name, why)
	}
	s.mu.Unlock()
	if !closing {
		s.log.Error("mcp: server connection ended; its tools give error results", "server", s.srv.Name, "err", why)
	}
}

func (s *Source) markStale() {
	s.mu.Lock()
	s.stale = true
	s.changes++
	s.mu.Unlock()
}

// Tools returns the server's tools. The list is fetched on the first call
// and again after the server says it changed, so a host calling Tools
// before each run gives each run the current list. When fetching fails
// (the server is gone or hangs past ListTimeout) the last list is
// returned with the error, and its calls give error results.
func (s *Source) Tools(ctx context.Context) ([]dispatch.Tool, error) {
	s.mu.Lock()
	stale, last, dead, changes := s.stale, s.tools, s.dead, s.changes
	s.mu.Unlock()
	if dead != nil {
		return last, dead
	}
	if !stale {
		return last, nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.srv.ListTimeout)
	defer cancel()
	var listed []*tool
	for t, err := range s.session.Tools(ctx, nil) {
		if err != nil {
			s.log.Error("mcp: listing tools failed", "server", s.srv.Name, "err", err)
			return last, fmt.Errorf("mcp: list tools of %q: %w", s.srv.Name, err)
		}
		bt, err := s.tool(t)
		if err != nil {
			s.log.Warn("mcp: tool left out", "server", s.srv.Name, "tool", t.Name, "err", err)
			continue
		}
		listed = append(listed, bt)
	}
	uniqueNames(listed, s.srv.Prefix)
	var tools []dispatch.Tool
	for _, t := range listed {
		tools = append(tools, t)
	}
	s.mu.Lock()
	s.tools = tools
	// A change announced while this listing was on its way may not be in
	// it: the next call lists again.
	s.stale = s.changes != changes
	s.mu.Unlock()
	return tools, nil
}

// Close ends the connection (a command gets its stdin closed, then a
// SIGTERM if it lingers) and waits for it to end.
func (s *Source) Close() error {
	s.mu.Lock()
	if s.dead == nil {
		s.dead = fmt.Errorf("mcp: server %q is closed", s.srv.Name)
	}
	s.mu.Unlock()
	err := s.session.Close()
	<-s.exited
	if err != nil {
		return fmt.Errorf("mcp: close %q: %w", s.srv.Name, err)
	}
	return nil
}

// gone reports why the connection ended, or nil while it is up.
func (s *Source) gone() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead
}

// connectionEndWait bounds how long a failed call waits to learn whether
// the connection ended under it.
const connectionEndWait = 3 * time.Second

// ended reports why the connection ended when a call's failure (not an
// error the server answered) is the connection ending, so that the call
// says the server is gone and why rather than "EOF"; else nil.
func (s *Source) ended(callErr error) error {
	var answered *jsonrpc.Error
	if s.cmd == nil || errors.As(callErr, &answered) {
		// Over HTTP a failed request need not end the session.
		return nil
	}
	timer := time.NewTimer(connectionEndWait)
	defer timer.Stop()
	select {
	case <-s.exited:
		return s.gone()
	case <-timer.C:
		return nil
	}
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	header http.Header
	next   http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range h.header {
		r.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	next := h.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}
