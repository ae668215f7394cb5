package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// slowEcho answers every model call, after a pause, with "ok".
type slowEcho struct{}

func (slowEcho) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		if yield(turn.Chunk{Kind: turn.ChunkText, Text: "ok"}, nil) {
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		}
	}
}

// Messages posted to one thread at once each get a stream, one starting
// the run and the others steering it or starting the next, and the
// thread ends up holding every one of them: none lost to a race between
// the posts, none taken twice.
func TestConcurrentPostsToOneThreadKeepEveryMessage(t *testing.T) {
	srv, _ := plainServer(t, store.NewMemory(), slowEcho{}, HandlerOptions{})
	const n = 8
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{
				"threadId": "t1", "runId": fmt.Sprint("r", i), "state": map[string]any{}, "tools": []any{}, "context": []any{},
				"messages": []any{map[string]any{"id": fmt.Sprint("u", i), "role": "user", "content": fmt.Sprint("message ", i)}},
			})
			resp, err := http.Post(srv.URL, "application/json", strings.NewReader(string(body)))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			_, _ = io.Copy(io.Discard, resp.Body)
			codes[i] = resp.StatusCode
		}()
	}
	wg.Wait()
	for i, code := range codes {
		if code != http.StatusOK {
			t.Errorf("post %d: status %d", i, code)
		}
	}
	var conv string
	waitFor(t, func() bool {
		resp, err := http.Get(srv.URL + "/t1/messages")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		conv = string(b)
		return strings.Contains(conv, `"phase":"settled"`)
	})
	for i := range n {
		if c := strings.Count(conv, fmt.Sprintf(`"message %d"`, i)); c != 1 {
			t.Errorf("the thread holds message %d %d times, want once", i, c)
		}
	}
}
