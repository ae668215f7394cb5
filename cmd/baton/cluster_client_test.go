package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/google/go-cmp/cmp"
)

// aguiHarness is the folder of the official AG-UI client that wire's
// tests drive; the test skips without it, or fails when CI is set.
func aguiHarness(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "wire", "testdata", "agui-client"))
	if err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(filepath.Join(dir, "node_modules", "@ag-ui", "client"))
	_, nodeErr := exec.LookPath("node")
	if statErr == nil && nodeErr == nil {
		return dir
	}
	msg := "the cluster test needs node and `npm ci --prefix wire/testdata/agui-client`"
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set, so this is a failure): node: %v, node_modules: %v", msg, nodeErr, statErr)
	}
	t.Skip(msg + "; skipped outside CI")
	return ""
}

// cluster is a set of serve nodes that a test kills with SIGKILL and
// starts again on the same address, as a service manager would.
type cluster struct {
	t     *testing.T
	args  []string
	mu    sync.Mutex
	nodes []*serveNode
}

func (c *cluster) restart(i int) {
	c.mu.Lock()
	old := c.nodes[i]
	c.mu.Unlock()
	_ = old.cmd.Process.Signal(syscall.SIGKILL)
	_ = old.cmd.Wait()
	n := startNode(c.t, append(c.args, "--addr", old.addr)...)
	c.mu.Lock()
	c.nodes[i] = n
	c.mu.Unlock()
}

// restartAt restarts the node listening at addr.
func (c *cluster) restartAt(addr string) {
	c.mu.Lock()
	i := slices.IndexFunc(c.nodes, func(n *serveNode) bool { return n.addr == addr })
	c.mu.Unlock()
	if i < 0 {
		c.t.Fatalf("no node listens at %s", addr)
	}
	c.restart(i)
}

// clusterThread is what cluster.mjs reports of one thread.
type clusterThread struct {
	Thread   string `json:"thread"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	Errors   []string `json:"errors"`
	Attempts int      `json:"attempts"`
	Resumes  int      `json:"resumes"`
	Finished bool     `json:"finished"`
}

// Three serve processes share 30 threads through PostgreSQL, driven by
// the official AG-UI client, which posts each request to a node picked at
// random, while nodes are killed with SIGKILL mid-run, four times, and
// started again; a client whose stream breaks reconnects to any node and
// rebuilds the conversation from what it replays. Every client ends with
// its run finished and the whole conversation, as recorded (nothing it
// was shown is missing from the store, nothing is doubled); every session
// holds its run exactly once
// (one submit, one committed model reply, whatever node drove it), and
// verifies and replays byte for byte.
func TestServeClusterSurvivesKills(t *testing.T) {
	skipShort(t, "spawns processes")
	dir := aguiHarness(t)
	isolate(t)
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	script := writeScript(t, `{"loop": true, "replies": [{"text": "every node answers the same thread once", "first_delay": "1s", "chunk_delay": "60ms"}]}`)
	c := &cluster{t: t, args: []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}}
	var urls []string
	for range 3 {
		n := startNode(t, c.args...)
		c.nodes = append(c.nodes, n)
		urls = append(urls, "http://"+n.addr+"/")
	}
	const threads = 30
	var ids []string
	for i := range threads {
		ids = append(ids, fmt.Sprintf("t%02d", i))
	}
	arg, _ := json.Marshal(map[string]any{"urls": urls, "threads": ids})
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	client := exec.CommandContext(cctx, "node", "cluster.mjs", string(arg))
	client.Dir = dir
	var stdout, stderr bytes.Buffer
	client.Stdout = &stdout
	errPipe, err := client.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	// Each kill takes the node a stream has just opened on, however slow
	// the machine is to start node and the client, so that kills cut
	// streams: the client says which node each stream opens on. A reply
	// waits a second before its first word, much longer than a kill
	// takes.
	opened := make(chan string)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		defer close(opened)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "streaming "); ok {
				opened <- rest
				continue
			}
			if !strings.HasPrefix(sc.Text(), "closed ") {
				stderr.WriteString(sc.Text() + "\n")
			}
		}
	}()
	kills := 0
	for stream := range opened {
		_, node, _ := strings.Cut(stream, " ")
		if kills == 4 {
			continue
		}
		c.restartAt(node)
		kills++
		// Streams that opened while the node restarted may have ended
		// since: the next kill waits for one that opens after.
		for drained := false; !drained; {
			select {
			case _, ok := <-opened:
				drained = !ok
			default:
				drained = true
			}
		}
	}
	<-copied
	if err := client.Wait(); err != nil {
		t.Fatalf("node cluster.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	for _, n := range c.nodes {
		_ = n.cmd.Process.Signal(syscall.SIGTERM)
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
	got := map[string]clusterThread{}
	resumes := 0
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r clusterThread
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("client output %q: %v", sc.Text(), err)
		}
		got[r.Thread] = r
		resumes += r.Resumes
	}
	t.Logf("%d streams resumed on a node picked at random", resumes)
	if resumes == 0 {
		t.Error("no stream was cut by the kills: the test did not exercise failover")
	}
	for _, thread := range ids {
		id := defaultNamespace + thread
		r, ok := got[thread]
		if !ok || !r.Finished || len(r.Errors) > 0 {
			t.Errorf("%s: client finished %v after %d attempts, errors %v", id, r.Finished, r.Attempts, r.Errors)
			continue
		}
		recs, err := st.Records(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		kinds := map[contract.SignalKind]int{}
		want := []string{}
		for _, rec := range recs {
			kinds[rec.Signal.SignalKind()]++
			switch sig := rec.Signal.(type) {
			case contract.Submitted:
				for _, turn := range sig.Input {
					want = append(want, string(turn.Role)+": "+turn.Text())
				}
			case contract.ModelReplied:
				want = append(want, string(sig.Reply.Role)+": "+sig.Reply.Text())
			}
		}
		if kinds[contract.SigSubmitted] != 1 || kinds[contract.SigModelReplied] != 1 {
			t.Errorf("%s: records by kind %v, want one run answered once", id, kinds)
		}
		var client []string
		for _, m := range r.Messages {
			client = append(client, m.Role+": "+m.Content)
		}
		if diff := cmp.Diff(want, client); diff != "" {
			t.Errorf("%s: the client's conversation is not the recorded one (-recorded +client):\n%s", id, diff)
		}
		if code, stdout, stderr := cli(t, "", "replay", "--store", url, id); code != 0 || !bytes.HasPrefix([]byte(stdout), []byte("replay verified")) {
			t.Errorf("%s: replay: exit %d %q %q", id, code, stdout, stderr)
		}
	}
}
