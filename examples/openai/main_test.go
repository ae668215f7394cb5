package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// chunk is one server-sent event of a streamed chat completion.
func chunk(delta, finish string) string {
	if finish != "" {
		finish = `"` + finish + `"`
	} else {
		finish = "null"
	}
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}` + "\n\n"
}

// compatibleServer answers as an OpenAI-compatible server on loopback
// would: a call of the add tool, then the answer.
func compatibleServer() *httptest.Server {
	var calls atomic.Int32
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		var b strings.Builder
		if calls.Add(1) == 1 {
			b.WriteString(chunk(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"add","arguments":"{\"a\":1234.5,\"b\":678.25}"}}]}`, ""))
			b.WriteString(chunk(`{}`, "tool_calls"))
		} else {
			b.WriteString(chunk(`{"role":"assistant","content":"1234.5 + 678.25 = "}`, ""))
			b.WriteString(chunk(`{"content":"1912.75"}`, "stop"))
		}
		b.WriteString(`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}` + "\n\n")
		b.WriteString("data: [DONE]\n\n")
		fmt.Fprint(w, b.String())
	}))
}

// The program against a compatible server on loopback, so a change that
// breaks the example fails here without a key or a network.
func Example() {
	srv := compatibleServer()
	defer srv.Close()
	os.Setenv("OPENAI_BASE_URL", srv.URL)
	os.Setenv("OPENAI_API_KEY", "test")
	defer os.Unsetenv("OPENAI_BASE_URL")
	defer os.Unsetenv("OPENAI_API_KEY")
	main()
	// Output:
	// 1234.5 + 678.25 = 1912.75
	// (settled: 2 model calls, 40 tokens in, 10 out)
}
