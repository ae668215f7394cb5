package transcripttest

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
)

// Server plays a transcript's responses in order, one per request, and
// repeats the last; it records what each request sent.
type Server struct {
	*httptest.Server
	responses []Response
	// verbatim writes each body whole rather than event by event.
	verbatim bool

	mu       sync.Mutex
	served   int
	requests [][]byte
	headers  []http.Header
}

// ServeFile starts a Server playing the transcript at path, closed when
// the test ends.
func ServeFile(t testing.TB, path string) *Server {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Serve(t, data)
}

// Serve starts a Server playing the transcript data, closed when the test
// ends.
func Serve(t testing.TB, data []byte) *Server {
	t.Helper()
	s, err := NewServer(data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a Server playing the transcript data; the caller
// closes it.
func NewServer(data []byte) (*Server, error) {
	rs, err := Parse(data)
	if err != nil {
		return nil, err
	}
	s := &Server{responses: rs}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s, nil
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	rec := s.responses[min(s.served, len(s.responses)-1)]
	s.served++
	s.requests = append(s.requests, body)
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	for k, v := range rec.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Status)
	if s.verbatim {
		w.Write(rec.Body)
		return
	}
	play(w, r, rec)
}

// play writes the body event by event, flushing each, as a server does.
func play(w http.ResponseWriter, r *http.Request, rec Response) {
	f, _ := w.(http.Flusher)
	sc := bufio.NewScanner(bytes.NewReader(rec.Body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		w.Write(append(sc.Bytes(), '\n'))
		if len(sc.Bytes()) == 0 && f != nil {
			f.Flush()
		}
	}
	if f != nil {
		f.Flush()
	}
	switch rec.Mode {
	case ModeHold:
		<-r.Context().Done()
	case ModeCut:
		panic(http.ErrAbortHandler)
	}
}

// Served reports how many requests arrived.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// Request returns the body of the i-th request, or nil if there was none.
func (s *Server) Request(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.requests) {
		return nil
	}
	return s.requests[i]
}

// Header returns the headers of the i-th request, or nil if there was
// none.
func (s *Server) Header(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.headers) {
		return nil
	}
	return s.headers[i]
}
