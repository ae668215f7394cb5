package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// serveNode is a `baton serve` process of the test binary.
type serveNode struct {
	cmd  *exec.Cmd
	addr string
}

func startNode(t *testing.T, args ...string) *serveNode {
	t.Helper()
	raw, _ := json.Marshal(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgsEnv+"="+string(raw))
	cmd.Stderr = io.Discard
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "baton: serving AG-UI on http://"); ok {
				a, _, _ = strings.Cut(a, "/")
				addr <- a
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case a := <-addr:
		return &serveNode{cmd: cmd, addr: a}
	case <-time.After(20 * time.Second):
		t.Fatal("serve node did not start")
		return nil
	}
}

func (n *serveNode) post(t *testing.T, thread, msgID, text string) (int, string) {
	t.Helper()
	body := `{"threadId":"` + thread + `","runId":"` + msgID + `","messages":[{"id":"` + msgID + `","role":"user","content":"` + text + `"}]}`
	resp, err := http.Post("http://"+n.addr+"/", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// waitFor polls cond, bounded.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// Two serve processes share sessions through PostgreSQL. While one drives
// a thread, the other starts no second driver for it but hands it the
// thread's requests; when
// the driver is killed with SIGKILL in the middle of a model call, the
// other resumes the run on the next request and goes on, and the session
// verifies and replays byte for byte with the interrupted run settled
// once.
func TestServeNodesShareSessions(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"loop": true, "replies": [{"text": "done", "first_delay": "1500ms"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}
	n1, n2 := startNode(t, args...), startNode(t, args...)

	go n1.post(t, "shared", "m1", "first") // its stream is cut by the kill
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitFor(t, "the first node to commit the submit", func() bool {
		_, err := st.Head(ctx, defaultNamespace+"shared")
		return err == nil
	})
	// The second node hands the thread's requests to the first: a stream
	// asked of the second node is the first's run.
	relayed, err := http.Get("http://" + n2.addr + "/?threadId=shared&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Body.Close()
	if relayed.StatusCode != http.StatusOK {
		t.Fatalf("stream from the second node: %d", relayed.StatusCode)
	}
	// Read up to the run's start, however the bytes arrive.
	lines := bufio.NewScanner(relayed.Body)
	for lines.Scan() && !strings.Contains(lines.Text(), "RUN_STARTED") {
	}
	if lines.Err() != nil || !strings.Contains(lines.Text(), "RUN_STARTED") {
		t.Fatalf("stream from the second node ended before RUN_STARTED: %v", lines.Err())
	}
	if err := n1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = n1.cmd.Wait()
	// The owner died mid-run, so the relayed stream breaks off for its
	// client to reconnect, as a stream from the owner itself would.
	if rest, err := io.ReadAll(relayed.Body); err == nil || strings.Contains(string(rest), "RUN_FINISHED") {
		t.Fatalf("the relayed stream went on after its owner died: %v\n%s", err, rest)
	}

	// The second node resumes the interrupted run by itself; a message
	// sent while it is in flight would steer it, so the next one waits
	// for its reply.
	waitFor(t, "the second node to finish the interrupted run", func() bool {
		recs, err := st.Records(ctx, defaultNamespace+"shared")
		if err != nil {
			return false
		}
		for _, r := range recs {
			if r.Signal.SignalKind() == (contract.ModelReplied{}).SignalKind() {
				return true
			}
		}
		return false
	})
	var code int
	var body string
	waitFor(t, "the second node to take the thread over", func() bool {
		code, body = n2.post(t, "shared", "m3", "second")
		return code != http.StatusConflict
	})
	if code != http.StatusOK || !strings.Contains(body, "RUN_FINISHED") || !strings.Contains(body, "done") {
		t.Fatalf("second node after the kill: %d\n%s", code, body)
	}
	if err := n2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := n2.cmd.Wait(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
	}

	http.DefaultClient.CloseIdleConnections()
	if err := st.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	recs, err := st.Records(ctx, defaultNamespace+"shared")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[contract.SignalKind]int{}
	for _, r := range recs {
		kinds[r.Signal.SignalKind()]++
	}
	if kinds[contract.Submitted{}.SignalKind()] != 2 || kinds[contract.ModelReplied{}.SignalKind()] != 2 {
		t.Fatalf("records by kind %v: want two submits, each answered once", kinds)
	}
	if code, stdout, stderr := cli(t, "", "replay", "--store", url, defaultNamespace+"shared"); code != 0 || !strings.HasPrefix(stdout, "replay verified") {
		t.Fatalf("replay: exit %d %q %q", code, stdout, stderr)
	}
}
