package wire

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Host names are case-insensitive and may end in the root's dot: a
// client that names the loopback host LOCALHOST or localhost. (curl
// sends the Host as typed) talks to the handler on loopback, and is no
// rebinding page; refusing it with 421 breaks such a tokenless client.
func TestHandlerWithoutTokenServesLoopbackHostsAsSpelt(t *testing.T) {
	e := newEnv(t, weatherScript)
	code, body, _ := e.do("POST", "", runBody("t1", "weather?"), map[string]string{"Content-Type": "application/json"})
	if code != http.StatusOK || !strings.Contains(body, "RUN_FINISHED") {
		t.Fatalf("run: %d %s", code, body)
	}
	_, port, _ := strings.Cut(e.srv.Listener.Addr().String(), ":")
	for _, host := range []string{"LOCALHOST:" + port, "Localhost", "localhost.:" + port, "[::1]:" + port, "127.0.0.1"} {
		req, err := http.NewRequest("GET", e.srv.URL+"/?threadId=t1&lastEventId=0", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusMisdirectedRequest {
			t.Errorf("GET with Host %s: %d, want it served; body:\n%.300s", host, resp.StatusCode, b)
		}
	}
}
