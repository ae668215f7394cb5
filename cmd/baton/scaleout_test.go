package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
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
	if testing.Short() {
		t.Skip("spawns processes")
	}
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
	// The second node hands the thread's requests to the first: a new
	// message is refused as the owner refuses it while its run is in
	// flight, and a stream asked of the second node is the first's run.
	if code, body := n2.post(t, "shared", "m2", "meanwhile"); code != http.StatusConflict || !strings.Contains(body, "already has a run in flight") {
		t.Fatalf("second node while the first drives the thread: %d %q", code, body)
	}
	relayed, err := http.Get("http://" + n2.addr + "/?threadId=shared&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	defer relayed.Body.Close()
	head := make([]byte, 4096)
	if n, err := relayed.Body.Read(head); relayed.StatusCode != http.StatusOK || !strings.Contains(string(head[:n]), "RUN_STARTED") {
		t.Fatalf("stream from the second node: %d %q %v", relayed.StatusCode, head[:n], err)
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

// cluster is a set of serve nodes that a test kills and replaces.
type cluster struct {
	t          *testing.T
	args       []string
	mu         sync.Mutex
	nodes      []*serveNode
	reconnects atomic.Int64 // streams resumed on another node
}

func (c *cluster) node(i int) *serveNode {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[i%len(c.nodes)]
}

// killAndReplace kills node i with SIGKILL and starts another in its
// place.
func (c *cluster) killAndReplace(i int) {
	c.mu.Lock()
	old := c.nodes[i]
	c.mu.Unlock()
	_ = old.cmd.Process.Signal(syscall.SIGKILL)
	n := startNode(c.t, c.args...)
	c.mu.Lock()
	c.nodes[i] = n
	c.mu.Unlock()
}

// follow is an AG-UI client of one thread: it starts the run on one node
// and, whenever the stream breaks, reconnects to the next node with the
// last event id it got (or starts the run again when no node has heard
// of it), until it reads RUN_FINISHED. It returns the text it assembled.
func follow(c *cluster, thread string, first int) (string, error) {
	last := ""
	var text strings.Builder
	for attempt := 0; attempt < 200; attempt++ {
		n := c.node(first + attempt)
		body := `{"threadId":"` + thread + `","runId":"r1","messages":[{"id":"m1","role":"user","content":"go"}]}`
		req, err := http.NewRequest(http.MethodPost, "http://"+n.addr+"/", strings.NewReader(body))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
			c.reconnects.Add(1)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if resp.StatusCode == http.StatusNotFound && last != "" {
			// Nothing was committed before the node died: start again.
			resp.Body.Close()
			last = ""
			continue
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if last == "" {
			last = "0"
		}
		sc := bufio.NewScanner(resp.Body)
		finished := false
		for sc.Scan() {
			line := sc.Text()
			if id, ok := strings.CutPrefix(line, "id: "); ok {
				last = id
			}
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var ev struct {
				Type  string `json:"type"`
				Delta string `json:"delta"`
			}
			if json.Unmarshal([]byte(data), &ev) != nil {
				continue
			}
			switch ev.Type {
			case "TEXT_MESSAGE_CONTENT":
				text.WriteString(ev.Delta)
			case "RUN_FINISHED":
				finished = true
			}
		}
		resp.Body.Close()
		if finished {
			return text.String(), nil
		}
	}
	return text.String(), errors.New("no RUN_FINISHED after 200 attempts")
}

// Three serve processes share 30 threads through PostgreSQL while nodes
// are killed with SIGKILL mid-run and replaced: every client reads its
// run to RUN_FINISHED by reconnecting to another node, and every session
// ends with its run settled exactly once, verifying and replaying byte
// for byte.
func TestServeClusterSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	isolate(t)
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"loop": true, "replies": [{"text": "done", "first_delay": "600ms"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &cluster{t: t, args: []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}}
	for range 3 {
		c.nodes = append(c.nodes, startNode(t, c.args...))
	}
	const threads = 30
	texts := make([]string, threads)
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for i := range threads {
		wg.Go(func() { texts[i], errs[i] = follow(c, fmt.Sprintf("t%02d", i), i) })
	}
	for k := range 3 {
		time.Sleep(300 * time.Millisecond)
		c.killAndReplace(k % 3)
	}
	wg.Wait()
	t.Logf("%d streams resumed on another node", c.reconnects.Load())
	if c.reconnects.Load() == 0 {
		t.Error("no stream was cut by the kills: the test did not exercise failover")
	}
	for i := range c.nodes {
		_ = c.node(i).cmd.Process.Signal(syscall.SIGTERM)
	}
	http.DefaultClient.CloseIdleConnections()

	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range threads {
		id := defaultNamespace + fmt.Sprintf("t%02d", i)
		if errs[i] != nil || !strings.Contains(texts[i], "done") {
			t.Errorf("%s: client got %q, %v", id, texts[i], errs[i])
		}
		recs, err := st.Records(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		kinds := map[contract.SignalKind]int{}
		for _, r := range recs {
			kinds[r.Signal.SignalKind()]++
		}
		if kinds[contract.Submitted{}.SignalKind()] != 1 || kinds[contract.ModelReplied{}.SignalKind()] != 1 {
			t.Errorf("%s: records by kind %v, want one run answered once", id, kinds)
		}
		if code, stdout, stderr := cli(t, "", "replay", "--store", url, id); code != 0 || !strings.HasPrefix(stdout, "replay verified") {
			t.Errorf("%s: replay: exit %d %q %q", id, code, stdout, stderr)
		}
	}
}
