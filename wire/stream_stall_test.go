package wire

import (
	"context"
	"io"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// A client that stops reading a stream, its run's or a resumed one, of
// either protocol, is cut off after the write timeout: the thread it
// held is released, and idles out.
func TestStreamsCutAClientThatStopsReading(t *testing.T) {
	big := strings.Repeat("x", 16<<20) // far more than socket buffers hold
	chat := `{"id":"t1","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]}]}`
	tests := []struct{ name, request string }{
		{"AG-UI run", rawPost("/", runBody("t1", "hi"))},
		{"AI SDK chat", rawPost("/?protocol=ai-sdk", chat)},
		{"AG-UI resume", "GET /?threadId=t1&lastEventId=1 HTTP/1.1\r\nHost: localhost\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := store.NewMemory()
			runners := plainRunners(st, &script{replies: []func(context.Context) ([]turn.Chunk, error){
				reply(turn.Chunk{Kind: turn.ChunkText, Text: big}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
			}})
			// Counting the threads opened sees the client's thread however
			// briefly it lives: with these timeouts it can come and go
			// between two looks at the registry on a busy machine.
			var opened atomic.Int32
			srv, h := serveRunners(t, func(ctx context.Context, id string) (Runner, error) {
				r, err := runners(ctx, id)
				if err == nil {
					opened.Add(1)
				}
				return r, err
			}, HandlerOptions{WriteTimeout: 50 * time.Millisecond, IdleTimeout: 10 * time.Millisecond})
			threads := func() int { h.mu.Lock(); defer h.mu.Unlock(); return len(h.threads) }
			want := int32(1)
			if strings.HasPrefix(tt.request, "GET") {
				want++
				resp := postTo(t, srv.URL, runBody("t1", "hi"))
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				waitFor(t, func() bool { return threads() == 0 })
			}
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_ = conn.(*net.TCPConn).SetReadBuffer(4 << 10)
			if _, err := io.WriteString(conn, tt.request); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return opened.Load() == want })
			for i := 0; threads() != 0; i++ {
				if i == 1000 {
					t.Fatal("the thread is still held by a client that stopped reading")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

func rawPost(path, body string) string {
	return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}
