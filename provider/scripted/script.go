package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/batonrt/baton/contract"
)

// ErrExhausted is wrapped by the error of a call made after the script
// ran out of replies.
var ErrExhausted = errors.New("scripted: script exhausted")

// ErrUnexpectedRequest is wrapped by the error of a call that Expect
// refused.
var ErrUnexpectedRequest = errors.New("scripted: unexpected request")

// Script is a turn.Provider playing replies in order. It is safe for
// concurrent use; set Expect before the first call.
type Script struct {
	// Expect, when set, sees every request with its 1-based number; an
	// error fails that call as invalid_request, wrapping
	// ErrUnexpectedRequest.
	Expect func(turn int, req contract.ModelRequest) error

	mu      sync.Mutex
	replies []Reply
	loop    bool
	gen     func(contract.ModelRequest) Reply
	next    int
	reqs    []contract.ModelRequest
}

// New returns a script playing replies once each, in order.
func New(replies ...Reply) *Script { return &Script{replies: replies} }

// Repeat returns a script playing reply n times, or forever when n <= 0.
func Repeat(reply Reply, n int) *Script {
	if n <= 0 {
		return &Script{replies: []Reply{reply}, loop: true}
	}
	replies := make([]Reply, n)
	for i := range replies {
		replies[i] = reply
	}
	return New(replies...)
}

// Func returns a script that never runs out: each call plays gen's reply
// to the request. Concurrent calls may run gen concurrently.
func Func(gen func(req contract.ModelRequest) Reply) *Script { return &Script{gen: gen} }

// Echo returns a script that answers every request with the text of its
// newest user turn.
func Echo() *Script {
	return Func(func(req contract.ModelRequest) Reply {
		turns := req.History.Turns()
		for i := len(turns) - 1; i >= 0; i-- {
			if turns[i].Role == contract.RoleUser {
				return Reply{Text: turns[i].Text()}
			}
		}
		return Reply{}
	})
}

type scriptJSON struct {
	// Loop plays the replies again from the first once they run out.
	Loop    bool    `json:"loop,omitempty"`
	Replies []Reply `json:"replies"`
}

// Parse reads a JSON script (see the package doc) and validates it.
func Parse(b []byte) (*Script, error) {
	var j scriptJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("scripted: parse: %w", err)
	}
	if len(j.Replies) == 0 {
		return nil, errors.New("scripted: parse: no replies")
	}
	for i, r := range j.Replies {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("scripted: parse: reply %d: %w", i+1, err)
		}
	}
	return &Script{replies: j.Replies, loop: j.Loop}, nil
}

// Load reads and parses a JSON script file.
func Load(path string) (*Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scripted: load: %w", err)
	}
	s, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return s, nil
}

func (r Reply) validate() error {
	var bad []string
	if r.FirstDelay < 0 || r.ChunkDelay < 0 {
		bad = append(bad, "delays must not be negative")
	}
	for i, c := range r.Calls {
		if strings.TrimSpace(c.Name) == "" {
			bad = append(bad, fmt.Sprintf("tool call %d has no name", i+1))
		}
	}
	if f := r.Fail; f != nil {
		if f.After < 0 {
			bad = append(bad, "fail.after must not be negative")
		}
		if f.Cut && f.Hang {
			bad = append(bad, "fail.cut and fail.hang exclude each other")
		}
		if f.RetryAfter < 0 {
			bad = append(bad, "fail.retry_after must not be negative")
		}
		if f.Status != 0 && (f.Status < 100 || f.Status > 599) {
			bad = append(bad, fmt.Sprintf("fail.status %d is not an HTTP status", f.Status))
		}
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

// Requests returns the requests received so far, in order.
func (s *Script) Requests() []contract.ModelRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]contract.ModelRequest(nil), s.reqs...)
}

// take records req and returns its number and the reply to play.
func (s *Script) take(req contract.ModelRequest) (int, Reply, bool) {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	n, gen := len(s.reqs), s.gen
	if gen == nil {
		defer s.mu.Unlock()
		if s.next >= len(s.replies) {
			if !s.loop || len(s.replies) == 0 {
				return n, Reply{}, false
			}
			s.next = 0
		}
		s.next++
		return n, s.replies[s.next-1], true
	}
	s.mu.Unlock()
	return n, gen(req), true
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the script")
	}
	return nil
}
