package transcripttest

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/batonrt/baton/turn"
)

// ServeBody starts a Server that answers every request with status 200,
// contentType and body byte for byte, closed when the test ends: for the
// streams a transcript's lines cannot hold (a byte order mark, lone CR
// line ends, an event cut before its line end).
func ServeBody(t testing.TB, contentType, body string) *Server {
	t.Helper()
	s := &Server{
		responses: []Response{{Status: http.StatusOK, Header: http.Header{"Content-Type": {contentType}}, Body: []byte(body)}},
		verbatim:  true,
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

// ServeBody starts a Server answering with body as ServeBody does and
// returns it with the provider pointed at it.
func (s Suite) ServeBody(t testing.TB, contentType, body string) (*Server, turn.Provider) {
	t.Helper()
	srv := ServeBody(t, contentType, body)
	return srv, s.Dial(srv.URL, srv.Client())
}
