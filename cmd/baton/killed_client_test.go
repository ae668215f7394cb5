package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

var killSeed = flag.Uint64("killseed", 0, "seed of the kill points of the killed-server client tests (0: from the clock)")

// killedReplies are the model's replies in every run: reasoning, text
// and three tool calls at once, then, after their results, reasoning and
// text.
var killedReplies = [2]string{
	`{"thinking": "Which files are here, and what do they say?", "text": "I will read three files at once.", "chunk_delay": "3ms", "tool_calls": [
		{"id": "c1", "name": "list_files", "arguments": {"path": "."}},
		{"id": "c2", "name": "read_file", "arguments": {"path": "notes.txt"}},
		{"id": "c3", "name": "read_file", "arguments": {"path": "missing.txt"}}]}`,
	`{"thinking": "Both reads came back.", "text": "The notes say hello; the other file is not there.", "chunk_delay": "3ms"}`,
}

// killedScripts are the script a process starts with when the run it
// may resume has made none of its model calls yet or one: the model goes
// on where the run is, as a model would.
func killedScripts(t *testing.T) [2]string {
	return [2]string{
		writeScript(t, `{"loop": true, "replies": [`+killedReplies[0]+`,`+killedReplies[1]+`]}`),
		writeScript(t, `{"loop": true, "replies": [`+killedReplies[1]+`,`+killedReplies[0]+`]}`),
	}
}

// killPlan says, per thread, after which SSE blocks its client takes
// (counted over all its streams) the test kills the server.
type killPlan map[string][]int

// newKillPlan picks one kill point for each of n threads among the
// first max blocks, and a second, later one for every third thread.
func newKillPlan(t *testing.T, prefix string, n, max int) (killPlan, []string) {
	t.Helper()
	seed := *killSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("kill points from seed %d (-killseed to repeat)", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	plan := killPlan{}
	var threads []string
	for i := range n {
		id := fmt.Sprintf("%s%02d", prefix, i)
		threads = append(threads, id)
		k := 1 + rng.IntN(max)
		plan[id] = []int{k}
		if i%3 == 2 {
			plan[id] = append(plan[id], k+1+rng.IntN(max/2))
		}
	}
	return plan, threads
}

// killingServer is one `baton serve` process on a fixed address and
// store, which the test kills with SIGKILL and starts again there.
type killingServer struct {
	t       *testing.T
	store   string
	args    []string
	scripts [2]string
	node    *serveNode
	kills   int
}

func startKillingServer(t *testing.T, args ...string) *killingServer {
	s := &killingServer{t: t, store: t.TempDir(), scripts: killedScripts(t)}
	s.args = append([]string{"--store", s.store, "--provider", "scripted", "--workspace", killedWorkspace(t)}, args...)
	s.node = startNode(t, append(s.args, "--script", s.scripts[0])...)
	return s
}

// restart kills the process while it streams thread's run and starts
// another, whose model goes on where the run stands.
func (s *killingServer) restart(thread string) {
	s.t.Helper()
	_ = s.node.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.node.cmd.Wait()
	s.kills++
	st, err := store.Open(s.store)
	if err != nil {
		s.t.Fatal(err)
	}
	replied := 0
	recs, _ := st.Records(s.t.Context(), defaultNamespace+thread)
	for _, r := range recs {
		if _, ok := r.Signal.(contract.ModelReplied); ok {
			replied++
		}
	}
	st.Close()
	s.node = startNode(s.t, append(s.args, "--script", s.scripts[replied%2], "--addr", s.node.addr)...)
}

// stop ends the process the way a service manager does, so that the
// store can be read.
func (s *killingServer) stop() {
	_ = s.node.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.node.cmd.Wait()
}

// runKilledClient runs a node script of harness that reports, on
// stderr, "frame THREAD N" for each SSE block its client takes, kills
// the server at the plan's points, and returns the script's stdout.
func runKilledClient(t *testing.T, dir string, srv *killingServer, plan killPlan, script string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{script}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || f[0] != "frame" {
			stderr.WriteString(sc.Text() + "\n")
			continue
		}
		n, _ := strconv.Atoi(f[2])
		for _, k := range plan[f[1]] {
			if k == n {
				srv.restart(f[1])
			}
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("node %s: %v\nstderr:\n%s", script, err, stderr.String())
	}
	return stdout.Bytes()
}

// storedTranscript folds a stored session and renders its history as
// clientTranscript renders a client's messages.
func storedTranscript(t *testing.T, st store.Store, id string) []string {
	t.Helper()
	recs, err := st.Records(t.Context(), id)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	snap, err := replayRules().Fold(cadence.InitialSnapshot(id), recs)
	if err != nil {
		t.Fatalf("%s: fold: %v", id, err)
	}
	var out []string
	for _, turn := range snap.History.Turns() {
		if turn.Role == contract.RoleTool {
			for _, r := range turn.Results() {
				out = append(out, "tool "+r.CallID+": "+r.Content)
			}
			continue
		}
		var thinking strings.Builder
		for _, b := range turn.Blocks {
			if b.Kind == contract.BlockThinking {
				thinking.WriteString(b.Text)
			}
		}
		if thinking.Len() > 0 {
			out = append(out, "reasoning: "+thinking.String())
		}
		out = append(out, string(turn.Role)+": "+turn.Text())
		for _, c := range turn.Calls() {
			out = append(out, "  call "+c.ID+" "+c.Name+" "+c.Arguments)
		}
	}
	return out
}

// killedWorkspace is a workspace with the file the script reads.
func killedWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws
}

// uiMessage is a message as the AI SDK's chat keeps it.
type uiMessage struct {
	Role  string `json:"role"`
	Parts []struct {
		Type       string          `json:"type"`
		Text       string          `json:"text"`
		ToolCallID string          `json:"toolCallId"`
		State      string          `json:"state"`
		Input      json.RawMessage `json:"input"`
		Output     json.RawMessage `json:"output"`
		ErrorText  string          `json:"errorText"`
	} `json:"parts"`
}

// uiTranscript renders a chat's messages as storedTranscript renders a
// history: per step, its reasoning, its text, its calls, then their
// results.
func uiTranscript(t *testing.T, msgs []uiMessage) []string {
	t.Helper()
	var out []string
	for _, m := range msgs {
		if m.Role == "user" {
			for _, p := range m.Parts {
				out = append(out, "user: "+p.Text)
			}
			continue
		}
		var reasoning, text string
		var calls, results []string
		flush := func() {
			if reasoning != "" {
				out = append(out, "reasoning: "+reasoning)
			}
			if text != "" || len(calls) > 0 {
				out = append(out, "assistant: "+text)
			}
			out = append(append(out, calls...), results...)
			reasoning, text, calls, results = "", "", nil, nil
		}
		for _, p := range m.Parts {
			switch {
			case p.Type == "step-start":
				flush()
			case p.Type == "reasoning":
				reasoning += p.Text
			case p.Type == "text":
				text += p.Text
			case strings.HasPrefix(p.Type, "tool-"):
				var input bytes.Buffer
				_ = json.Compact(&input, p.Input)
				calls = append(calls, "  call "+p.ToolCallID+" "+p.Type[5:]+" "+input.String())
				result := p.ErrorText
				if p.State == "output-available" {
					_ = json.Unmarshal(p.Output, &result)
				}
				results = append(results, "tool "+p.ToolCallID+": "+result)
			}
		}
		flush()
	}
	return out
}

// compactCalls writes the calls' arguments of a transcript as the AI
// SDK's chat has them: parsed, then written compact.
func compactCalls(lines []string) []string {
	out := slices.Clone(lines)
	for i, l := range out {
		if rest, ok := strings.CutPrefix(l, "  call "); ok {
			f := strings.SplitN(rest, " ", 3)
			var b bytes.Buffer
			if len(f) == 3 && json.Compact(&b, []byte(f[2])) == nil {
				out[i] = "  call " + f[0] + " " + f[1] + " " + b.String()
			}
		}
	}
	return out
}

// The AI SDK's chat follows runs of one `baton serve` process that the
// test kills with SIGKILL at random points of the reply and starts again
// on the same store; the chat comes back as baton's page does on a
// reload, showing the thread's messages and resuming the run in flight.
// Each chat ends with exactly the stored session's conversation.
func TestServeKilledMidReplyAISDKClient(t *testing.T) {
	skipShort(t, "spawns processes")
	dir := aguiHarness(t)
	isolate(t)
	srv := startKillingServer(t)
	plan, threads := newKillPlan(t, "u", 12, 60)
	ids, _ := json.Marshal(threads)
	out := runKilledClient(t, dir, srv, plan, "killed-ui.mjs", "http://"+srv.node.addr+"/", string(ids))
	srv.stop()
	t.Logf("%d threads, %d kills", len(threads), srv.kills)

	st, err := store.Open(srv.store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	seen := 0
	for sc.Scan() {
		var r struct {
			Thread   string      `json:"thread"`
			Messages []uiMessage `json:"messages"`
			Finished bool        `json:"finished"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("client output %q: %v", sc.Text(), err)
		}
		seen++
		if !r.Finished {
			t.Errorf("%s (kills after blocks %v): the chat did not see its run end", r.Thread, plan[r.Thread])
			continue
		}
		want := compactCalls(storedTranscript(t, st, defaultNamespace+r.Thread))
		if diff := cmp.Diff(want, uiTranscript(t, r.Messages)); diff != "" {
			t.Errorf("%s (kills after blocks %v): the chat's conversation is not the stored one (-stored +chat):\n%s", r.Thread, plan[r.Thread], diff)
		}
	}
	if seen != len(threads) {
		t.Errorf("the client reported %d threads of %d", seen, len(threads))
	}
}
