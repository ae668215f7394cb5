package wire

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// twoTurns replies with words words and a tool call, then (after the
// tool) words words more.
func twoTurns(words int) func() []func(context.Context) ([]turn.Chunk, error) {
	text := func(prefix string) []turn.Chunk {
		var out []turn.Chunk
		for i := range words {
			out = append(out, turn.Chunk{Kind: turn.ChunkText, Text: fmt.Sprintf("%s%d ", prefix, i)})
		}
		return out
	}
	return func() []func(context.Context) ([]turn.Chunk, error) {
		first := append(text("a"),
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_1", Name: "get_weather"},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"city":"Paris"}`},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
		second := append(text("b"), turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})
		return []func(context.Context) ([]turn.Chunk, error){reply(first...), reply(second...)}
	}
}

// runText is the text of every assistant turn of the thread's last run.
func (e *env) runText(thread string) string {
	var b strings.Builder
	for _, t := range e.agent(thread).Snapshot().History.Turns() {
		if t.Role == contract.RoleAssistant {
			b.WriteString(t.Text())
		}
	}
	return b.String()
}

// uiText reads an AI SDK stream and returns its text, part by part in the
// order the parts began.
func uiText(resp *http.Response) (string, error) {
	_, chunks, err := decodeUI(resp.Body)
	if err != nil {
		return "", err
	}
	parts := map[string]*strings.Builder{}
	var order []string
	for _, c := range chunks {
		switch c.Type {
		case aisdk.TextStart:
			parts[c.ID] = &strings.Builder{}
			order = append(order, c.ID)
		case aisdk.TextDelta:
			parts[c.ID].WriteString(c.Delta)
		}
	}
	var b strings.Builder
	for _, id := range order {
		b.WriteString(parts[id].String())
	}
	return b.String(), nil
}

// A thousand readers (a quarter under the race detector) join a run at random points, before and while its
// second turn streams: each ends with every byte of the run's text, and
// so does the client that started it.
func TestThousandReadersGetEveryByte(t *testing.T) {
	const readers = 1000 / raceScale
	gate := make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: twoTurns(150), toolGate: gate, pace: 100 * time.Microsecond})
	// A test that ends early stops its clients and waits for them: none
	// may report once the test is over.
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	resp := e.postChat(ctx, chatBody("c1", "go"))
	defer resp.Body.Close()
	// The starting client reads all along, as every client here does:
	// the run waits at its tool until the readers have joined, which on a
	// loaded machine may take longer than the write timeout, and a stream
	// whose client reads nothing for that long is cut off.
	var starter string
	wg.Add(1)
	go func() {
		defer wg.Done()
		text, err := uiText(resp)
		if err != nil && ctx.Err() == nil {
			t.Errorf("the starting client: %v", err)
		}
		starter = text
	}()
	waitFor(t, func() bool {
		return e.agent("c1") != nil && e.agent("c1").Snapshot().Phase == contract.PhaseAwaitingTools
	})
	var joined atomic.Int64
	texts := make([]string, readers)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: readers}}
	defer client.CloseIdleConnections()
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i >= readers/2 {
				// Half join once the gate opened, while the second turn
				// streams (or after the run, which is then 204).
				select {
				case <-gate:
				case <-ctx.Done():
					return
				}
				time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.srv.URL+"/api/chat/c1/stream?protocol=ai-sdk", nil)
			r, err := client.Do(req)
			if err != nil {
				if ctx.Err() == nil {
					t.Error(err)
				}
				return
			}
			defer r.Body.Close()
			if r.StatusCode == http.StatusNoContent {
				return
			}
			joined.Add(1)
			text, err := uiText(r)
			if err != nil && ctx.Err() == nil {
				t.Errorf("reader %d: %v", i, err)
			}
			texts[i] = text
		}()
	}
	waitLong(t, func() bool { return e.users("c1") > readers/2 })
	close(gate)
	wg.Wait()
	want := e.runText("c1")
	if starter != want {
		t.Errorf("the starting client got %d of %d bytes", len(starter), len(want))
	}
	bad := 0
	for _, got := range texts {
		if got != "" && got != want {
			bad++
		}
	}
	if bad > 0 || joined.Load() < readers/2 {
		t.Errorf("%d of %d joined readers got other text than the run's %d bytes (%d joined)", bad, joined.Load(), len(want), joined.Load())
	}
}

// 500 streams (a quarter under the race detector) held open at once on 500 threads, each with a run in
// flight, are served with bounded memory.
func TestFiveHundredStreamsBoundedMemory(t *testing.T) {
	const streams = 500 / raceScale
	gate := make(chan struct{})
	e := newEnvWith(t, envOptions{scripts: twoTurns(50), toolGate: gate})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: streams}}
	defer client.CloseIdleConnections()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	resps := make([]*http.Response, streams)
	for i := range streams {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL, strings.NewReader(runBody(fmt.Sprintf("t%d", i), "go")))
		req.Header.Set("Content-Type", "application/json")
		r, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		// Closed however the test ends: a stream left open follows a run
		// held at its tool, and the test server's Close waits for it.
		defer r.Body.Close()
		resps[i] = r
	}
	waitLong(t, func() bool {
		for i := range streams {
			a := e.agent(fmt.Sprintf("t%d", i))
			if a == nil || a.Snapshot().Phase != contract.PhaseAwaitingTools {
				return false
			}
		}
		return true
	})
	var during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&during)
	perStream := (int64(during.HeapInuse) - int64(before.HeapInuse)) / streams
	t.Logf("%d KiB of heap per stream in flight", perStream>>10)
	if perStream > 512<<10 {
		t.Errorf("%d KiB of heap per stream in flight, want under 512", perStream>>10)
	}
	close(gate)
	for i, r := range resps {
		frames := readSSE(t, r.Body)
		if got := types(frames); len(got) == 0 || got[len(got)-1] != agui.RunFinished {
			t.Fatalf("stream %d did not finish: %v", i, got)
		}
	}
}

// waitLong is waitFor for load tests, whose setup takes longer on a busy
// machine; still bounded.
func waitLong(t *testing.T, cond func() bool) {
	t.Helper()
	for range 3000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}
