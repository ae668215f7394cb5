package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// aguiMessage is a message as @ag-ui/client rebuilds it.
type aguiMessage struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"toolCallId"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"toolCalls"`
}

// sortResults puts each run of tool results in call order: a client
// shows them as the tools finish, the history in call order.
func sortResults(lines []string, order []string) []string {
	rank := map[string]int{}
	for i, l := range order {
		if id, ok := strings.CutPrefix(l, "  call "); ok {
			id, _, _ = strings.Cut(id, " ")
			rank[id] = i
		}
	}
	key := func(l string) int {
		id, _, _ := strings.Cut(strings.TrimPrefix(l, "tool "), ":")
		return rank[id]
	}
	out := slices.Clone(lines)
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && strings.HasPrefix(out[j], "tool ") {
			j++
		}
		slices.SortStableFunc(out[i:j], func(a, b string) int { return key(a) - key(b) })
		i = max(j, i+1)
	}
	return out
}

func aguiTranscript(msgs []aguiMessage) []string {
	var out []string
	for _, m := range msgs {
		if m.ToolCallID != "" {
			out = append(out, "tool "+m.ToolCallID+": "+m.Content)
			continue
		}
		out = append(out, m.Role+": "+m.Content)
		for _, c := range m.ToolCalls {
			out = append(out, "  call "+c.ID+" "+c.Function.Name+" "+c.Function.Arguments)
		}
	}
	return out
}

// The official AG-UI client follows runs of one `baton serve` process
// that the test kills with SIGKILL at random points of the reply (in the
// reasoning, the text, the parallel calls' arguments, the tools, the
// second reply) and starts again on the same store; the client keeps
// what it has and reconnects with the newest SSE id it got. Each client
// ends with exactly the stored session's conversation: no text lost,
// doubled or glued to another message's.
func TestServeKilledMidReplyAGUIClient(t *testing.T) {
	skipShort(t, "spawns processes")
	dir := aguiHarness(t)
	isolate(t)
	srv := startKillingServer(t)
	plan, threads := newKillPlan(t, "k", 18, 60)
	ids, _ := json.Marshal(threads)
	out := runKilledClient(t, dir, srv, plan, "killed.mjs", "http://"+srv.node.addr+"/", string(ids))
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
			Thread   string        `json:"thread"`
			Messages []aguiMessage `json:"messages"`
			Errors   []string      `json:"errors"`
			Finished bool          `json:"finished"`
			LastIDs  []string      `json:"lastIds"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("client output %q: %v", sc.Text(), err)
		}
		seen++
		if !r.Finished || len(r.Errors) > 0 {
			t.Errorf("%s (kills after blocks %v): finished %v, errors %v", r.Thread, plan[r.Thread], r.Finished, r.Errors)
			continue
		}
		want := storedTranscript(t, st, defaultNamespace+r.Thread)
		if diff := cmp.Diff(want, sortResults(aguiTranscript(r.Messages), want)); diff != "" {
			t.Errorf("%s (kills after blocks %v, resumed from %q): the client's conversation is not the stored one (-stored +client):\n%s", r.Thread, plan[r.Thread], r.LastIDs, diff)
		}
	}
	if seen != len(threads) {
		t.Errorf("the client reported %d threads of %d", seen, len(threads))
	}
}
