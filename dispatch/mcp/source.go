package mcp

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
)

// Source is a live connection to one MCP server. It is safe for
// concurrent use.
type Source struct {
	srv    Server
	log    *slog.Logger
	urls   urlHider
	client *sdk.Client
	// life ends with Close; it holds the values of Connect's context
	// for the connections made again later.
	life  context.Context
	end   context.CancelFunc
	tries sync.WaitGroup // the restart under way, which Close waits for
	// reportDone counts the listing that reports a change
	// (OnToolsChanged), which Close waits for.
	reportDone sync.WaitGroup

	mu         sync.Mutex
	conn       *conn // the newest connection
	closed     bool
	restarting *restartTry // the restart under way, or nil
	restarted  []time.Time // when the connection was made again, oldest first
	lastEnd    string      // how the connection last ended or failed to be made
	lastEnded  time.Time   // when it did
	tools      []dispatch.Tool
	remote     map[string]bool // the server's names of tools
	stale      bool            // the server said its tool list changed
	// changes counts the server's tool-list change notices, so that a
	// listing answered after a notice does not clear stale.
	changes uint64
	// reporting says a listing that reports changes is under way;
	// reported is the count of notices the last report covered, and
	// reports is closed, and made anew, at each report.
	reporting bool
	reported  uint64
	reports   chan struct{}
}

// Connect starts or reaches the server and completes the MCP handshake.
// ctx bounds the handshake only; the connection lives until Close. A
// command that exits later is started again by the next call of its
// tools, and a server over HTTP whose session ended is connected again
// (see Server.MaxRestarts).
func Connect(ctx context.Context, srv Server) (*Source, error) {
	if err := srv.check(); err != nil {
		return nil, err
	}
	if srv.ListTimeout == 0 {
		srv.ListTimeout = DefaultListTimeout
	}
	if srv.MaxRestarts == 0 {
		srv.MaxRestarts = DefaultMaxRestarts
	}
	if srv.RestartWindow == 0 {
		srv.RestartWindow = DefaultRestartWindow
	}
	s := &Source{srv: srv, log: srv.Logger, urls: newURLHider(srv.URL), stale: true, reports: make(chan struct{})}
	s.life, s.end = context.WithCancel(context.WithoutCancel(ctx))
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.client = sdk.NewClient(&sdk.Implementation{Name: "baton", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.markStale() },
		// The SDK says only here why it left a listed tool out, or a
		// notification failed.
		Logger: s.log.With("server", srv.Name),
	})
	c := s.newConn()
	if err := s.dial(ctx, c); err != nil {
		s.end()
		return nil, fmt.Errorf("mcp: connect %q: %w", srv.Name, err)
	}
	// Under the lock as every other access: a server may say its list
	// changed during the handshake, and the SDK runs the handler that
	// reads conn (markStale) beside Connect.
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	return s, nil
}

func (s *Source) markStale() {
	s.mu.Lock()
	s.stale = true
	s.changes++
	s.startReport()
	s.mu.Unlock()
}

// Tools returns the server's tools. The list is fetched on the first call
// and again after the server says it changed or the connection was made
// again, so a host calling Tools before each run gives each run the
// current list (and Server.OnToolsChanged the runs in flight). A connection that ended is made again first. When
// fetching fails (the server is gone or hangs past ListTimeout) the last
// list is returned with the error, and its calls give error results.
func (s *Source) Tools(ctx context.Context) ([]dispatch.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.srv.ListTimeout)
	defer cancel()
	c, err := s.live(ctx)
	s.mu.Lock()
	stale, last, changes := s.stale, s.tools, s.changes
	s.mu.Unlock()
	if err != nil {
		return last, err
	}
	if !stale {
		return last, nil
	}
	var listed []*tool
	seen := map[string]bool{}
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			s.log.Error("mcp: listing tools failed", "server", s.srv.Name, "err", err)
			return last, fmt.Errorf("mcp: list tools of %q: %w", s.srv.Name, err)
		}
		if seen[t.Name] {
			// A tool box refuses two tools of one name, and with them
			// all the host's tools.
			s.log.Warn("mcp: tool left out", "server", s.srv.Name, "tool", t.Name, "err", "listed again")
			continue
		}
		seen[t.Name] = true
		bt, err := s.tool(t)
		if err != nil {
			s.log.Warn("mcp: tool left out", "server", s.srv.Name, "tool", t.Name, "err", err)
			continue
		}
		listed = append(listed, bt)
	}
	uniqueNames(listed, s.srv.Prefix)
	var tools []dispatch.Tool
	remote := make(map[string]bool, len(listed))
	for _, t := range listed {
		tools = append(tools, t)
		remote[t.remote] = true
	}
	s.mu.Lock()
	s.tools, s.remote = tools, remote
	// A change announced while this listing was on its way may not be in
	// it: the next call lists again.
	s.stale = s.changes != changes
	s.mu.Unlock()
	return tools, nil
}

// offers reports an error unless the server's newest listing has the
// tool the server calls remote, listing again first when the list
// changed, so that a tool the server dropped fails clearly rather than
// with whatever the server answers for a name it does not know.
func (s *Source) offers(ctx context.Context, remote string) error {
	s.mu.Lock()
	stale := s.stale
	s.mu.Unlock()
	if stale {
		if _, err := s.Tools(ctx); err != nil {
			return err
		}
	}
	s.mu.Lock()
	ok := s.remote[remote]
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("mcp: unknown tool %q: server %q no longer offers it", remote, s.srv.Name)
	}
	return nil
}

// Close ends the connection (a command gets its stdin closed, then a
// SIGTERM if it lingers) and waits for it to end. A restart under way
// is stopped.
func (s *Source) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.end()
	// Once a restart under way has returned, the connection is the last;
	// no restart begins once closed is set.
	s.tries.Wait()
	s.reportDone.Wait()
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if err := c.close(); err != nil {
		return fmt.Errorf("mcp: close %q: %w", s.srv.Name, err)
	}
	return nil
}

// headerTransport adds fixed headers to every request to the server's
// host, or a subdomain of it, and to no other: it sits below the
// client, which hands it each request of a redirect as well, and the
// headers hold credentials that Go's client itself keeps from another
// domain a server redirects to.
type headerTransport struct {
	host   string // the server's host name, lower case
	header http.Header
	next   http.RoundTripper
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	next := h.next
	if next == nil {
		next = http.DefaultTransport
	}
	if !sameDomain(r.URL.Hostname(), h.host) {
		return next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, vs := range h.header {
		r.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	return next.RoundTrip(r)
}

// sameDomain reports whether host is domain or a subdomain of it, as
// Go's client decides whether credentials follow a redirect.
func sameDomain(host, domain string) bool {
	host = strings.ToLower(host)
	return host == domain || strings.HasSuffix(host, "."+domain)
}
