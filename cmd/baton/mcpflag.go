package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
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
	s.NeedsApproval = !f.trusted
	*f.servers = append(*f.servers, s)
	return nil
}

// addMCPFlags adds --mcp and --mcp-trusted; run and serve share them.
func addMCPFlags(fs *flagSet) *[]mcp.Server {
	servers := new([]mcp.Server)
	fs.Var(mcpFlag{servers: servers}, "mcp", "add an MCP server's tools, named NAME_TOOL, each call asking for approval: 'NAME=COMMAND ARGS' (stdio) or NAME=https://... (streamable HTTP); repeatable")
	fs.Var(mcpFlag{servers: servers, trusted: true}, "mcp-trusted", "as --mcp, for a server whose tools run without asking; repeatable")
	return servers
}

// mcpConnectTimeout bounds starting a server and its handshake.
const mcpConnectTimeout = 30 * time.Second

// openMCP connects every server and lists its tools. A server that dies
// or fails a call is logged to stderr, with the end of the server's own
// stderr, which is otherwise not shown. The returned close ends every
// connection.
func openMCP(ctx context.Context, servers []mcp.Server, stderr io.Writer) ([]dispatch.Tool, func(), error) {
	log := slog.New(slog.NewTextHandler(lockedWriter{mu: new(sync.Mutex), w: stderr}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	var sources []*mcp.Source
	closeAll := func() {
		for _, s := range sources {
			s.Close()
		}
	}
	var tools []dispatch.Tool
	for _, srv := range servers {
		srv.Logger = log
		cctx, cancel := context.WithTimeout(ctx, mcpConnectTimeout)
		src, err := mcp.Connect(cctx, srv)
		cancel()
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		sources = append(sources, src)
		ts, err := src.Tools(ctx)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		tools = append(tools, ts...)
	}
	return tools, closeAll, nil
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
