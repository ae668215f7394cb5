package mcp_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"
)

// rawServer is the value of stdioServerEnv that makes the test binary a
// server spoken to line by line without the SDK, so that it can do what
// the SDK's servers never do: answer its handshake and listing, then
// hold its one tool's calls unanswered (and refuse other requests), writing each line it reads to
// the file rawServerLog names (it also lists a tool the SDK refuses); with rawServerDeaf set it also stops
// reading its stdin once it has listed its tools, as a server stuck in a
// handler on its only thread does.
const (
	rawServer     = "raw"
	rawServerLog  = "BATON_MCP_TEST_RAW_LOG"
	rawServerDeaf = "BATON_MCP_TEST_RAW_DEAF"
)

// rawStdioServer returns the command that starts the test binary as the
// raw server, logging what it reads to log, deaf after its listing when
// deaf is set.
func rawStdioServer(t *testing.T, log string, deaf bool) []string {
	t.Helper()
	cmd := stdioServer(t)
	cmd[1] = stdioServerEnv + "=" + rawServer
	extra := []string{rawServerLog + "=" + log}
	if deaf {
		extra = append(extra, rawServerDeaf+"=1")
	}
	return append(append(cmd[:2:2], extra...), cmd[2:]...)
}

// serveRaw runs the raw server until its stdin closes.
func serveRaw() {
	log, err := os.OpenFile(os.Getenv(rawServerLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		fmt.Fprintf(log, "%s\n", in.Bytes())
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || req.ID == nil {
			continue
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "raw", "version": "1"},
			}
		case "tools/list":
			result = map[string]any{"tools": []any{
				map[string]any{"name": "stall", "inputSchema": map[string]any{"type": "object"}},
				// The SDK leaves out a tool whose x-mcp-header annotation
				// is on a property that is not of a primitive type.
				map[string]any{"name": "misheaded", "inputSchema": json.RawMessage(`{"type":"object","properties":{"o":{"type":"object","x-mcp-header":"O"}}}`)},
			}}
		case "tools/call":
			continue // never answered
		default:
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
			continue
		}
		out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		if req.Method == "tools/list" && os.Getenv(rawServerDeaf) != "" {
			for {
				time.Sleep(time.Hour) // reads nothing more until it is ended
			}
		}
	}
}
