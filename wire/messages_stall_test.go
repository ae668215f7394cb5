package wire

import (
	"context"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

// A client that asks for a thread's messages and stops reading the
// answer is cut off after the write timeout, as a stream's is: else the
// write, once the connection's buffers are full, blocks for ever, holding
// the connection, its goroutine and the thread, which never idles.
func TestMessagesCutAClientThatStopsReading(t *testing.T) {
	// Far more text than socket buffers hold.
	said := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(strings.Repeat("x", 16<<20))}}
	stored := []contract.RunEvent{
		{Seq: 1, RunID: "r1", Kind: contract.EvRunStarted},
		{Seq: 2, RunID: "r1", Kind: contract.EvTurnCompleted, Turn: &said},
		{Seq: 3, RunID: "r1", Kind: contract.EvRunSettled},
	}
	h := NewRunnerHandler(func(context.Context, string) (Runner, error) {
		return storedRunner{stored: stored}, nil
	}, HandlerOptions{WriteTimeout: 50 * time.Millisecond})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close() })
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	if _, err := io.WriteString(conn, "GET /t1/messages HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	users := func() int {
		h.mu.Lock()
		defer h.mu.Unlock()
		if th, ok := h.threads["t1"]; ok {
			return th.users
		}
		return -1
	}
	waitFor(t, func() bool { return users() == 1 })
	// Bounded, and far longer than the write timeout.
	for i := 0; users() != 0; i++ {
		if i == 1000 {
			t.Fatal("the handler still writes the messages to a client that stopped reading")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
