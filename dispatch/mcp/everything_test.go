package mcp_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// settleWithin bounds a call's wait for its outcome. It is long: a 17 MiB
// result under the race detector, on a busy 2-core machine, has taken
// over two minutes to cross a pipe and be decoded. A call that should
// take that long needs a timeout as long (the scheduler's default is
// contract.DefaultToolTimeout, shorter).
const settleWithin = 5 * time.Minute

// call runs one call of the named tool through a Scheduler, as an agent
// would, and returns its outcome.
func call(t *testing.T, tools []dispatch.Tool, opts dispatch.Options, name, args string) dispatch.Outcome {
	t.Helper()
	box, err := dispatch.NewToolBox(tools...)
	if err != nil {
		t.Fatal(err)
	}
	tl, ok := box.Lookup(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	s := dispatch.NewScheduler(opts)
	defer s.Close(context.Background())
	done := make(chan dispatch.Outcome, 1)
	job := dispatch.Job{Call: contract.ToolCall{ID: "call_1", Name: name, Arguments: args}, Tool: tl, Done: func(o dispatch.Outcome) { done <- o }}
	if err := s.Dispatch(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-done:
		return o
	case <-time.After(settleWithin):
		t.Fatalf("call never settled in %v", settleWithin)
	}
	return dispatch.Outcome{}
}

func names(tools []dispatch.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Descriptor().Name)
	}
	return out
}

func everything(t *testing.T, srv mcp.Server) []dispatch.Tool {
	t.Helper()
	src := connect(t, srv)
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// TestEverythingStdio lists the reference server's tools over stdio and
// calls them through the scheduler.
func TestEverythingStdio(t *testing.T) {
	bin := serverBin(t, "mcp-server-everything")
	tools := everything(t, mcp.Server{Name: "ev", Command: []string{bin, "stdio"}, Prefix: "ev_", Timeout: 20 * time.Second})
	got := names(tools)
	for _, want := range []string{"ev_echo", "ev_get-sum", "ev_get-tiny-image", "ev_trigger-long-running-operation"} {
		if !slices.Contains(got, want) {
			t.Errorf("tools %v lack %s", got, want)
		}
	}
	sum := tools[slices.Index(got, "ev_get-sum")].Descriptor()
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(sum.InputSchema, &schema); err != nil || schema.Type != "object" || schema.Properties["a"] == nil {
		t.Errorf("get-sum input schema %s: %v", sum.InputSchema, err)
	}
	if sum.Description == "" || sum.Timeout != 20*time.Second {
		t.Errorf("get-sum descriptor %+v", sum)
	}

	tests := []struct {
		name, tool, args string
		want             []string
		isError          bool
	}{
		{"text", "ev_echo", `{"message":"hello"}`, []string{"Echo: hello"}, false},
		{"numbers", "ev_get-sum", `{"a":2,"b":3}`, []string{"5"}, false},
		{"image becomes a note", "ev_get-tiny-image", `{}`, []string{"Here's the image you requested:", "[image image/png, ", "bytes, not shown]", "The image above is the MCP logo."}, false},
		{"bad arguments are an error result", "ev_get-sum", `{"a":"two"}`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := call(t, tools, dispatch.Options{}, tt.tool, tt.args)
			if o.Outcome.IsError != tt.isError {
				t.Fatalf("outcome %+v, want error %v", o.Outcome, tt.isError)
			}
			for _, w := range tt.want {
				if !strings.Contains(o.Outcome.Content, w) {
					t.Errorf("content %q lacks %q", o.Outcome.Content, w)
				}
			}
		})
	}
}

// TestDispatchLimits: the scheduler's timeout ends a call the server
// would keep running for a minute (the cancellation reaches the server),
// and the output cap cuts a long result.
func TestDispatchLimits(t *testing.T) {
	bin := serverBin(t, "mcp-server-everything")
	short := everything(t, mcp.Server{Name: "ev", Command: []string{bin, "stdio"}, Timeout: 300 * time.Millisecond})
	start := time.Now()
	o := call(t, short, dispatch.Options{Grace: 100 * time.Millisecond}, "trigger-long-running-operation", `{"duration":60,"steps":60}`)
	if !o.TimedOut || !o.Outcome.IsError || time.Since(start) > 10*time.Second {
		t.Errorf("long call: %+v after %v, want a timed-out error result at once", o, time.Since(start))
	}
	// The capped call must complete, so it gets a server whose timeout a
	// busy machine's slow round trip stays well within.
	roomy := everything(t, mcp.Server{Name: "ev", Command: []string{bin, "stdio"}, Timeout: 20 * time.Second})
	long := strings.Repeat("x", 500)
	o = call(t, roomy, dispatch.Options{OutputCap: 100}, "echo", `{"message":"`+long+`"}`)
	if !o.Outcome.Truncated || len(o.Outcome.Content) > 100 {
		t.Errorf("capped call: %+v", o.Outcome)
	}
}

// TestEverythingHTTP reaches the reference server over streamable HTTP
// with a header on every request.
func TestEverythingHTTP(t *testing.T) {
	bin := serverBin(t, "mcp-server-everything")
	port := freePort(t)
	cmd := exec.Command(bin, "streamableHttp")
	cmd.Env = append(cmd.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	srv := mcp.Server{Name: "web", URL: "http://127.0.0.1:" + port + "/mcp", Header: map[string][]string{"X-Token": {"secret"}}, Prefix: "web_"}
	var src *mcp.Source
	waitFor(t, "the HTTP server to listen", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s, err := mcp.Connect(ctx, srv)
		src = s
		return err == nil
	})
	t.Cleanup(func() { src.Close() })
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := call(t, tools, dispatch.Options{}, "web_get-sum", `{"a":40,"b":2}`)
	if o.Outcome.IsError || !strings.Contains(o.Outcome.Content, "42") {
		t.Errorf("outcome %+v", o.Outcome)
	}
}
