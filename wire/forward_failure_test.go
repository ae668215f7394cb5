package wire

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// An owner that takes a forwarded request and fails before answering is
// reported with what failed, not the proxy's error, whose text names the
// owner's address inside the cluster; the error goes to the log.
func TestNonOwnerHidesWhyTheOwnerFailed(t *testing.T) {
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(make(chan struct{}), reply())}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	p.startRun(t, a, "t1")
	// The owner as b finds it: it reads the request and hangs up.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = http.ReadRequest(bufio.NewReader(c))
			c.Close()
		}
	}()
	owner, _ := url.Parse("http://" + l.Addr().String())
	p.lookup = func(string) *url.URL { return owner }
	resp, err := http.Get(b.srv.URL + "?threadId=t1&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	const want = "wire: the process that drives the thread failed to answer\n"
	if resp.StatusCode != http.StatusBadGateway || string(body) != want {
		t.Errorf("got %d %q, want %d %q", resp.StatusCode, body, http.StatusBadGateway, want)
	}
}
