package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
	"github.com/batonrt/baton/turn"
)

// mcpFlag is one of the repeatable flags that add MCP servers, each
// NAME=COMMAND ARGS or NAME=URL, to one list: --mcp adds a server whose
// tool calls each wait for approval, as the shell's do, since a server
// can do anything its process can; --mcp-trusted adds one whose calls
// run without asking.
type mcpFlag struct {
	servers *[]mcp.Server
	trusted bool
}

func (f mcpFlag) String() string { return "" }

func (f mcpFlag) Set(spec string) error {
	s, err := mcp.ParseServer(spec)
	if err != nil {
		return err
	}
	// Two servers of one name could be told apart by nothing in the
	// logs or the approval prompt, and their tools share a prefix.
	if slices.ContainsFunc(*f.servers, func(o mcp.Server) bool { return o.Name == s.Name }) {
		return fmt.Errorf("server %q is given twice", s.Name)
	}
	s.NeedsApproval = !f.trusted
	*f.servers = append(*f.servers, s)
	return nil
}

// addMCPFlags adds --mcp, --mcp-trusted and --mcp-env; run and serve
// share them.
func addMCPFlags(fs *flagSet) *[]mcp.Server {
	servers := new([]mcp.Server)
	fs.Var(mcpFlag{servers: servers}, "mcp", "add an MCP server's tools, named NAME_TOOL, each call asking for approval: 'NAME=COMMAND ARGS' (stdio) or NAME=https://... (streamable HTTP); repeatable")
	fs.Var(mcpFlag{servers: servers, trusted: true}, "mcp-trusted", "as --mcp, for a server whose tools run without asking; repeatable")
	fs.Var(mcpEnvFlag{servers: servers}, "mcp-env", "give the stdio server of the --mcp or --mcp-trusted before it NAME=VALUE, or NAME as baton has it; a server gets only PATH, HOME, USER, LOGNAME, SHELL and TERM of baton's environment besides; repeatable")
	return servers
}

// mcpConnectTimeout bounds starting a server and its handshake.
const mcpConnectTimeout = 30 * time.Second

// mcpServers are the MCP servers a command connected.
type mcpServers struct {
	sources []*mcp.Source
	log     *slog.Logger

	mu sync.Mutex
	// followers are told when a server's tools changed (follow), by the
	// id follow gave each.
	followers map[int]func(context.Context)
	next      int
	// telling is held while followers are told of one change, so that
	// of two servers' changes told at once the list given last is the
	// newer: made after both servers listed their tools again.
	telling sync.Mutex
}

// openMCP connects every server and lists its tools. A server that dies
// or fails a call is logged to stderr, with the end of the server's own
// stderr, which is otherwise not shown, and so is a tool left out because
// its schema cannot be sent. Close ends every connection.
func openMCP(ctx context.Context, servers []mcp.Server, stderr io.Writer) (*mcpServers, []dispatch.Tool, error) {
	m := &mcpServers{log: slog.New(slog.NewTextHandler(lockedWriter{mu: new(sync.Mutex), w: stderr}, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	var tools []dispatch.Tool
	for _, srv := range servers {
		srv.Logger = m.log
		srv.CheckTool = sendableTool
		srv.OnToolsChanged = m.changed
		cctx, cancel := context.WithTimeout(ctx, mcpConnectTimeout)
		src, err := mcp.Connect(cctx, srv)
		cancel()
		if err != nil {
			m.close()
			return nil, nil, err
		}
		m.sources = append(m.sources, src)
		ts, err := src.Tools(ctx)
		if err != nil {
			m.close()
			return nil, nil, err
		}
		tools = append(tools, ts...)
	}
	return m, tools, nil
}

// sendableTool refuses an MCP server's tool whose input schema no model
// can be sent: offered, it would have every run refused, and the server
// is not the user's to fix, so the tool is left out and the rest offered.
func sendableTool(d contract.ToolDescriptor) error {
	if _, err := turn.ToolSchema(d.InputSchema); err != nil {
		return fmt.Errorf("its input schema cannot be sent to a model: %w", err)
	}
	return nil
}

// with returns fixed and the servers' tools as they are now: a server
// lists its tools again after it says they changed or after it was
// started or connected again, so each run a host starts with it offers the
// current list, and so does each change given to a run in flight
// (follow). A server whose listing fails gives its last list (its
// source logs why); a tool whose name another took is left out. m may
// be nil.
func (m *mcpServers) with(ctx context.Context, fixed []dispatch.Tool) []dispatch.Tool {
	if m == nil {
		return fixed
	}
	out := slices.Clone(fixed)
	taken := map[string]bool{}
	for _, t := range fixed {
		taken[t.Descriptor().Name] = true
	}
	for _, src := range m.sources {
		ts, _ := src.Tools(ctx)
		for _, t := range ts {
			name := t.Descriptor().Name
			if taken[name] {
				m.log.Warn("mcp: tool left out: another tool has its name", "tool", name)
				continue
			}
			taken[name] = true
			out = append(out, t)
		}
	}
	return out
}

// follow gives the run in flight of agent, whose own tools are fixed and
// the servers' (with), the servers' tools again each time one of them
// says its tools changed, so that the run's next model call offers them
// (conductor.Agent.SetRunTools). With no run in flight, or a run of a
// rules revision that keeps its tools, nothing is done: the next Submit
// brings the new list. It returns the func that stops it; m may be nil.
func (m *mcpServers) follow(agent *conductor.Agent, fixed []dispatch.Tool) (stop func()) {
	if m == nil {
		return func() {}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.followers == nil {
		m.followers = map[int]func(context.Context){}
	}
	id := m.next
	m.next++
	m.followers[id] = func(ctx context.Context) {
		err := agent.SetRunTools(ctx, m.with(ctx, fixed)...)
		switch {
		case err == nil, errors.Is(err, conductor.ErrNoRun), errors.Is(err, conductor.ErrRejected), errors.Is(err, conductor.ErrClosed), ctx.Err() != nil:
		default:
			m.log.Warn("mcp: the run in flight goes on with the tools it had", "err", err)
		}
	}
	return func() {
		m.mu.Lock()
		delete(m.followers, id)
		m.mu.Unlock()
	}
}

// changed is every server's Server.OnToolsChanged: it has each follower
// give its run the servers' tools as they are now, one change at a time.
func (m *mcpServers) changed(ctx context.Context, _ []dispatch.Tool) {
	m.telling.Lock()
	defer m.telling.Unlock()
	m.mu.Lock()
	followers := slices.Collect(maps.Values(m.followers))
	m.mu.Unlock()
	for _, f := range followers {
		f(ctx)
	}
}

func (m *mcpServers) close() {
	for _, s := range m.sources {
		s.Close()
	}
}

// checkToolNames reports a name two tools share, which NewToolBox would
// refuse less clearly.
func checkToolNames(command string, tools []dispatch.Tool) error {
	seen := map[string]bool{}
	var dup []string
	for _, t := range tools {
		n := t.Descriptor().Name
		if seen[n] {
			dup = append(dup, n)
		}
		seen[n] = true
	}
	if len(dup) > 0 {
		return errors.New(command + ": tools of one name: " + strings.Join(dup, ", "))
	}
	return nil
}

// lockedWriter serializes writes from the goroutines that log.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}
