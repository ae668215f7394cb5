package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/google/go-cmp/cmp"
)

func open(t *testing.T, opts Options) (*Set, map[string]dispatch.Tool) {
	t.Helper()
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	s, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tools := map[string]dispatch.Tool{}
	for _, tl := range s.Tools() {
		tools[tl.Descriptor().Name] = tl
	}
	return s, tools
}

func call(t *testing.T, tl dispatch.Tool, args any) (contract.ToolOutcome, error) {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tl.Call(context.Background(), b)
}

func TestFileToolsRoundTrip(t *testing.T) {
	_, tools := open(t, Options{})
	out, err := call(t, tools["write_file"], map[string]string{"path": "notes/a.txt", "content": "hello"})
	if err != nil || out.IsError {
		t.Fatalf("write: %v %+v", err, out)
	}
	if _, err := call(t, tools["write_file"], map[string]string{"path": "b.txt", "content": "x"}); err != nil {
		t.Fatal(err)
	}
	out, err = call(t, tools["read_file"], map[string]string{"path": "notes/a.txt"})
	if err != nil || out.Content != "hello" {
		t.Fatalf("read: %v %+v", err, out)
	}
	out, err = call(t, tools["list_files"], map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("b.txt\nnotes/", out.Content); diff != "" {
		t.Errorf("list mismatch (-want +got):\n%s", diff)
	}
}

func TestFileToolsRefuseEscapes(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "secretlink")); err != nil {
		t.Fatal(err)
	}
	_, tools := open(t, Options{Root: root})
	tests := []struct {
		tool string
		args map[string]string
	}{
		{"read_file", map[string]string{"path": "../" + filepath.Base(outside) + "/secret"}},
		{"read_file", map[string]string{"path": "a/../../x"}},
		{"read_file", map[string]string{"path": filepath.Join(outside, "secret")}},
		{"read_file", map[string]string{"path": "link/secret"}},
		{"read_file", map[string]string{"path": "secretlink"}},
		{"write_file", map[string]string{"path": "../evil", "content": "x"}},
		{"write_file", map[string]string{"path": "/tmp/evil", "content": "x"}},
		{"write_file", map[string]string{"path": "link/evil", "content": "x"}},
		{"write_file", map[string]string{"path": "link/sub/evil", "content": "x"}},
		{"list_files", map[string]string{"path": ".."}},
		{"list_files", map[string]string{"path": "link"}},
		{"list_files", map[string]string{"path": "/"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args["path"], func(t *testing.T) {
			out, err := call(t, tools[tt.tool], tt.args)
			if err == nil {
				t.Fatalf("escape allowed: %+v", out)
			}
			if !errors.Is(err, ErrEscape) {
				t.Errorf("error %v does not match ErrEscape", err)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error leaks the secret: %v", err)
			}
		})
	}
	entries, err := os.ReadDir(outside)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("outside folder changed: %d entries", len(entries))
	}
}

func TestOptInTools(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"default", Options{}, []string{"read_file", "write_file", "list_files"}},
		{"shell", Options{AllowShell: true}, []string{"read_file", "write_file", "list_files", "shell"}},
		{"both", Options{AllowShell: true, AllowHTTP: true}, []string{"read_file", "write_file", "list_files", "shell", "http_get"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := open(t, tt.opts)
			var got []string
			for _, tl := range s.Tools() {
				d := tl.Descriptor()
				got = append(got, d.Name)
				if approval := d.Name == "shell" || d.Name == "http_get"; d.NeedsApproval != approval {
					t.Errorf("%s: NeedsApproval %v", d.Name, d.NeedsApproval)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tools mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShell(t *testing.T) {
	root := t.TempDir()
	// The commands that must finish get a timeout a busy machine cannot
	// reach (forking sh there has taken over 200ms); only the slow one
	// gets a short one.
	_, tools := open(t, Options{Root: root, AllowShell: true, ShellTimeout: time.Minute})
	out, err := call(t, tools["shell"], map[string]string{"command": "echo hi > f.txt && cat f.txt"})
	if err != nil || out.IsError || out.Content != "hi\n" {
		t.Fatalf("shell: %v %+v", err, out)
	}
	out, err = call(t, tools["shell"], map[string]string{"command": "exit 3"})
	if err != nil || !out.IsError || !strings.Contains(out.Content, "exit status 3") {
		t.Errorf("failing command: %v %+v", err, out)
	}
	_, short := open(t, Options{Root: root, AllowShell: true, ShellTimeout: 200 * time.Millisecond})
	out, err = call(t, short["shell"], map[string]string{"command": "sleep 5"})
	if err != nil || !out.IsError || !strings.Contains(out.Content, "timed out") {
		t.Errorf("slow command: %v %+v", err, out)
	}
	if _, err := call(t, tools["shell"], map[string]string{"cmd": "ls"}); err == nil {
		t.Error("unknown argument accepted")
	}
}

func TestHTTPGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("a", 100)))
	}))
	defer srv.Close()
	client := srv.Client()
	defer client.CloseIdleConnections()
	_, tools := open(t, Options{AllowHTTP: true, MaxHTTP: 10, HTTPClient: client})
	out, err := call(t, tools["http_get"], map[string]string{"url": srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	want := "HTTP 200 OK\ncontent-type: text/plain\n\naaaaaaaaaa\n[truncated at 10 bytes]"
	if diff := cmp.Diff(want, out.Content); diff != "" || !out.Truncated {
		t.Errorf("capped body mismatch (-want +got):\n%s", diff)
	}
	out, err = call(t, tools["http_get"], map[string]string{"url": srv.URL + "/missing"})
	if err != nil || !out.IsError {
		t.Errorf("404: %v %+v", err, out)
	}
	for _, bad := range []string{"file:///etc/passwd", "ftp://x", "not a url", ""} {
		if _, err := call(t, tools["http_get"], map[string]string{"url": bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(Options{}); err == nil {
		t.Error("empty root accepted")
	}
	if _, err := Open(Options{Root: filepath.Join(t.TempDir(), "missing")}); err == nil {
		t.Error("missing root accepted")
	}
}

// TestShellTimeoutEndsTheWholeCommand: a command line that started other
// processes leaves none running once it times out.
func TestShellTimeoutEndsTheWholeCommand(t *testing.T) {
	needProc(t)
	root := t.TempDir()
	_, tools := open(t, Options{Root: root, AllowShell: true, ShellTimeout: 300 * time.Millisecond})
	out, err := call(t, tools["shell"], map[string]string{"command": "sleep 30 & echo $! > pid; wait"})
	if err != nil || !out.IsError || !strings.Contains(out.Content, "timed out") {
		t.Fatalf("slow command: %v %+v", err, out)
	}
	if s, alive := outlives(t, root, 5*time.Second); alive {
		t.Fatalf("the command's sleep still runs after its timeout: %s", s)
	}
}

// needProc skips a test that watches processes through /proc where there
// is none, and fails it under CI, which runs on Linux.
func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no /proc under CI: this test must run there, on Linux")
		}
		t.Skip("needs /proc to see the processes (Linux)")
	}
}

// outlives reports whether the process whose id the command line wrote
// to root/pid still runs after within, with its /proc stat line; one
// that does is killed.
func outlives(t *testing.T, root string, within time.Duration) (string, bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	stat := fmt.Sprintf("/proc/%d/stat", pid)
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		s, err := os.ReadFile(stat)
		// Gone, or a zombie its new parent has yet to reap.
		if err != nil || strings.Contains(string(s), ") Z ") {
			return "", false
		}
		if time.Now().After(deadline) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
			return string(s), true
		}
	}
}
