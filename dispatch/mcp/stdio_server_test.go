package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioServerEnv names the variable that makes the test binary an MCP
// server over stdio instead of running tests, so that tests can start a
// Go SDK server as a command without building one.
const stdioServerEnv = "BATON_MCP_TEST_STDIO_SERVER"

// stdioServer returns the command that starts the test binary as an MCP
// server over stdio.
func stdioServer(t *testing.T) []string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"env", stdioServerEnv + "=1", exe, "-test.run=^$"}
}

// shiftingServer is the value of stdioServerEnv that makes the test
// binary the server whose tool list changes mid-call (addShifting).
const shiftingServer = "shifting"

// shiftingStdioServer returns the command that starts the test binary as
// the server whose tool list changes mid-call.
func shiftingStdioServer(t *testing.T) []string {
	t.Helper()
	cmd := stdioServer(t)
	cmd[1] = stdioServerEnv + "=" + shiftingServer
	return cmd
}

// noisyServer is the value of stdioServerEnv that makes the test binary
// a server that writes lines that are not messages to its stdout: a
// banner before it serves, and one in each call of its tool noise.
const noisyServer = "noisy"

// noisyStdioServer returns the command that starts the test binary as
// the noisy server.
func noisyStdioServer(t *testing.T) []string {
	t.Helper()
	cmd := stdioServer(t)
	cmd[1] = stdioServerEnv + "=" + noisyServer
	return cmd
}

// serveStdio runs the test server until its stdin closes. Its tools:
// crash says a last word on stderr and exits mid-call; surroundings
// answers with its BATON_MCP_TEST_VALUE, working folder and arguments;
// environment answers with the values of the variables it is asked for
// that it has; big answers with n bytes of text; pid answers with the
// server's process id. The
// shifting server has addShifting's tools instead, and the noisy server
// noise (addNoise) beside the others.
func serveStdio() {
	server := sdk.NewServer(&sdk.Implementation{Name: "stdio-test"}, nil)
	if os.Getenv(stdioServerEnv) == shiftingServer {
		addShifting(server)
		if err := server.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if os.Getenv(stdioServerEnv) == noisyServer {
		fmt.Println("stdio-test 1.0 listening on stdin")
		addNoise(server)
	}
	addBig(server)
	sdk.AddTool(server, &sdk.Tool{Name: "pid"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strconv.Itoa(os.Getpid())}}}, struct{}{}, nil
	})
	sdk.AddTool(server, &sdk.Tool{Name: "surroundings"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		wd, _ := os.Getwd()
		text := fmt.Sprintf("env=%q dir=%q args=%q", os.Getenv("BATON_MCP_TEST_VALUE"), wd, os.Args[1:])
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, struct{}{}, nil
	})
	addEnvironment(server)
	sdk.AddTool(server, &sdk.Tool{Name: "crash"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		fmt.Fprintln(os.Stderr, "out of cheese")
		os.Exit(2)
		return nil, struct{}{}, nil
	})
	if err := server.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// addShifting adds old, which answers "old", and shift, which drops old
// and itself and adds fresh (the server announces the change at once),
// then answers "shifted" once the client has asked for the tools again, as
// a call that changes what a server offers does: the client asks only
// after it counted the notice, so the answer cannot overtake the notice
// however busy the machine.
func addShifting(server *sdk.Server) {
	var shifting atomic.Bool
	relisted := make(chan struct{})
	var relistOnce sync.Once
	server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" && shifting.Load() {
				relistOnce.Do(func() { close(relisted) })
			}
			return next(ctx, method, req)
		}
	})
	text := func(out string) sdk.ToolHandlerFor[struct{}, struct{}] {
		return func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out}}}, struct{}{}, nil
		}
	}
	sdk.AddTool(server, &sdk.Tool{Name: "old"}, text("old"))
	sdk.AddTool(server, &sdk.Tool{Name: "shift"}, func(ctx context.Context, req *sdk.CallToolRequest, in struct{}) (*sdk.CallToolResult, struct{}, error) {
		shifting.Store(true)
		server.RemoveTools("old", "shift")
		sdk.AddTool(server, &sdk.Tool{Name: "fresh"}, text("fresh"))
		select {
		case <-relisted:
		case <-ctx.Done():
		case <-time.After(20 * time.Second):
		}
		return text("shifted")(ctx, req, in)
	})
}

// addBig adds the tool big, which answers with n bytes of text.
func addBig(server *sdk.Server) {
	type in struct {
		N int `json:"n"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "big"}, func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, struct{}, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", a.N)}}}, struct{}{}, nil
	})
}

// addNoise adds noise, which prints a line of text to stdout, where only
// messages belong, before it answers "answered", flood, which prints
// n such lines before it answers "flooded", and jsonlog, which prints a
// log line in JSON, as structured loggers write, before it answers
// "logged".
func addNoise(server *sdk.Server) {
	type in struct {
		N int `json:"n"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "flood"}, func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, struct{}, error) {
		for i := range a.N {
			fmt.Printf("DEBUG flood: line %d\n", i)
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "flooded"}}}, struct{}{}, nil
	})
	sdk.AddTool(server, &sdk.Tool{Name: "jsonlog"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		fmt.Println(`{"level":"debug","msg":"answering","id":7}`)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "logged"}}}, struct{}{}, nil
	})
	sdk.AddTool(server, &sdk.Tool{Name: "noise"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		fmt.Println("DEBUG noise: answering")
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "answered"}}}, struct{}{}, nil
	})
}

// addEnvironment adds environment, which answers with a JSON object of
// the variables named in its argument that the server's environment
// has, each with its value.
func addEnvironment(server *sdk.Server) {
	type in struct {
		Names []string `json:"names"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "environment"}, func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, struct{}, error) {
		found := map[string]string{}
		for _, name := range a.Names {
			if v, ok := os.LookupEnv(name); ok {
				found[name] = v
			}
		}
		text, err := json.Marshal(found)
		if err != nil {
			return nil, struct{}{}, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}, struct{}{}, nil
	})
}
