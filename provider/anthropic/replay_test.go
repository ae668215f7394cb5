package anthropic

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// A transcript is a file of recorded HTTP responses, each opening with a
// line "### HTTP <status>", then headers, a blank line and the body as the
// API sent it. The server plays them in order and repeats the last one.
// The pseudo-header "X-Replay: hold" keeps the connection open after the
// body until the client goes away; "X-Replay: cut" drops it mid-body.
type recorded struct {
	status int
	header http.Header
	body   []byte
	replay string
}

func parseTranscript(data []byte) ([]recorded, error) {
	var out []recorded
	for _, part := range bytes.Split(data, []byte("### HTTP "))[1:] {
		head, body, _ := bytes.Cut(part, []byte("\n\n"))
		lines := strings.Split(string(head), "\n")
		status, err := strconv.Atoi(strings.TrimSpace(lines[0]))
		if err != nil {
			return nil, err
		}
		r := recorded{status: status, header: http.Header{}, body: body}
		for _, l := range lines[1:] {
			k, v, _ := strings.Cut(l, ":")
			if strings.EqualFold(k, "X-Replay") {
				r.replay = strings.TrimSpace(v)
				continue
			}
			r.header.Add(k, strings.TrimSpace(v))
		}
		out = append(out, r)
	}
	return out, nil
}

type replayServer struct {
	*httptest.Server
	mu       sync.Mutex
	served   int
	requests [][]byte
	headers  []http.Header
}

func serveTranscript(t testing.TB, path string) *replayServer {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return serveBytes(t, data)
}

func serveBytes(t testing.TB, data []byte) *replayServer {
	t.Helper()
	rs, err := parseTranscript(data)
	if err != nil || len(rs) == 0 {
		t.Fatalf("bad transcript: %v", err)
	}
	s := &replayServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		rec := rs[min(s.served, len(rs)-1)]
		s.served++
		s.requests = append(s.requests, body)
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		play(w, r, rec)
	}))
	t.Cleanup(s.Close)
	return s
}

// play writes the body event by event, flushing each, as a server does.
func play(w http.ResponseWriter, r *http.Request, rec recorded) {
	f, _ := w.(http.Flusher)
	sc := bufio.NewScanner(bytes.NewReader(rec.body))
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
	switch rec.replay {
	case "hold":
		<-r.Context().Done()
	case "cut":
		panic(http.ErrAbortHandler)
	}
}

func (s *replayServer) request(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[i]
}
