package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestRunExportsTraces: with OTEL_EXPORTER_OTLP_ENDPOINT set, a run's
// spans reach the collector over OTLP/HTTP before the command returns.
func TestRunExportsTraces(t *testing.T) {
	isolate(t)
	var mu sync.Mutex
	var bodies [][]byte
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/traces" {
			mu.Lock()
			bodies = append(bodies, b)
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv(contentEnv, "true")
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "list_files", "arguments": {}}]},
	  {"text": "Nothing much.", "usage": {"input_tokens": 12, "output_tokens": 3}}
	]}`)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "what", "is", "here")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	mu.Lock()
	all := bytes.Join(bodies, nil)
	mu.Unlock()
	for _, want := range []string{"invoke_agent baton", "chat", "execute_tool list_files", "gen_ai.usage.input_tokens", "what is here", "service.name", "baton"} {
		if !bytes.Contains(all, []byte(want)) {
			t.Errorf("exported spans lack %q (%d requests)", want, len(bodies))
		}
	}
}

func TestTracingRefusesGRPC(t *testing.T) {
	isolate(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"replies": [{"text": "x"}]}`), "--store", t.TempDir(), "hi")
	if code != 1 || !strings.Contains(stderr, `OTLP protocol "grpc" is not supported`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestTracingSwitchedOff(t *testing.T) {
	isolate(t)
	requests := 0
	var mu sync.Mutex
	collector := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_SDK_DISABLED", "true")
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"replies": [{"text": "x"}]}`), "--store", t.TempDir(), "hi")
	mu.Lock()
	defer mu.Unlock()
	if code != 0 || requests != 0 {
		t.Errorf("exit %d, %d export requests with the SDK disabled: %s", code, requests, stderr)
	}
}
