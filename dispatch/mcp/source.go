package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"sync"
	"time"

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
		return nil, fmt.Errorf("mcp: connect %q: %w", srv.Name, err)
	}
	s.session = session
	go s.watch()
	return s, nil
}

func (s *Source) transport() sdk.Transport {
	if s.srv.URL == "" {
		cmd := exec.Command(s.srv.Command[0], s.srv.Command[1:]...)
		cmd.Env, cmd.Dir, cmd.Stderr = s.srv.Env, s.srv.Dir, s.srv.Stderr
		return &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
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
	err := s.session.Wait()
	s.mu.Lock()
	closing := s.dead != nil
	if !closing {
		s.dead = fmt.Errorf("mcp: server %q is gone (%v)", s.srv.Name, err)
	}
	s.mu.Unlock()
	if !closing {
		s.log.Error("mcp: server connection ended; its tools give error results", "server", s.srv.Name, "err", err)
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
	var tools []dispatch.Tool
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
		tools = append(tools, bt)
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
