package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// systemOpenAI is an OpenAI-compatible server on loopback that answers
// every chat completion "ok" and keeps the system message of each
// request it took.
func systemOpenAI(t *testing.T) (srv *httptest.Server, systems func() []string) {
	t.Helper()
	var mu sync.Mutex
	var got []string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		system := ""
		for _, m := range body.Messages {
			if m.Role == "system" {
				system = m.Content
			}
		}
		mu.Lock()
		got = append(got, system)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}` + "\n\n"))
		_, _ = w.Write([]byte(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"))
		_, _ = w.Write([]byte("data: [DONE]\n\n"))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// runSessionLine is the line run ends with on stderr, naming its session.
var runSessionLine = regexp.MustCompile(`(?m)^session (\S+)  \(baton log`)

// writeSystemFile writes a system prompt to a file.
func writeSystemFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "system.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// run's --system and --system-file replace the command line's system
// prompt in the model's request, and the session still replays under
// the command line's rules; without them the request carries the
// default.
func TestRunSystemPrompt(t *testing.T) {
	isolate(t)
	tests := []struct {
		name  string
		flags []string
		want  string
	}{
		{"default", nil, systemPrompt},
		{"--system", []string{"--system", "Answer in French."}, "Answer in French."},
		{"--system-file", []string{"--system-file", writeSystemFile(t, "You review Go code.\nBe strict.\n")}, "You review Go code.\nBe strict.\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, systems := systemOpenAI(t)
			dir := t.TempDir()
			args := append([]string{"run", "--base-url", srv.URL + "/v1", "--model", "m", "--instructions", "", "--store", dir, "--workspace", t.TempDir()}, tt.flags...)
			code, _, stderr := cli(t, "", append(args, "hello")...)
			if code != exitOK {
				t.Fatalf("run: exit %d: %s", code, stderr)
			}
			if diff := cmp.Diff([]string{tt.want}, systems()); diff != "" {
				t.Errorf("the requests' system messages (-want +got):\n%s", diff)
			}
			m := runSessionLine.FindStringSubmatch(stderr)
			if m == nil {
				t.Fatalf("run names no session:\n%s", stderr)
			}
			if code, stdout, stderr := cli(t, "", "replay", "--store", dir, m[1]); code != exitOK {
				t.Errorf("replay: exit %d: %s%s", code, stdout, stderr)
			}
		})
	}
}

// serve's --system reaches every thread's model requests.
func TestServeSystemPrompt(t *testing.T) {
	isolate(t)
	t.Setenv("BATON_SERVE_TOKEN", "")
	srv, systems := systemOpenAI(t)
	addr, _ := serveInProcess(t, "--base-url", srv.URL+"/v1", "--model", "m", "--store", t.TempDir(), "--workspace", t.TempDir(), "--system-file", writeSystemFile(t, "Answer in French."))
	body := `{"threadId":"t1","runId":"r1","messages":[{"id":"m1","role":"user","content":"hello"}]}`
	resp, err := http.Post("http://"+addr+"/", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "RUN_FINISHED") {
		t.Fatalf("post: %d:\n%s", resp.StatusCode, b)
	}
	if diff := cmp.Diff([]string{"Answer in French."}, systems()); diff != "" {
		t.Errorf("the requests' system messages (-want +got):\n%s", diff)
	}
}
