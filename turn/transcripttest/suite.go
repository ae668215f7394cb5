package transcripttest

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// Suite runs the checks every HTTP provider shares against one provider.
type Suite struct {
	// Dial returns the provider under test pointed at a replay server.
	Dial func(baseURL string, client *http.Client) turn.Provider
	// Request returns a fresh, valid request; tests may edit it.
	Request func() contract.ModelRequest
	// Dir holds the transcripts, one file <name>.sse per case.
	Dir string
}

// Serve starts a Server playing the transcript <name>.sse of s.Dir and
// returns it with the provider pointed at it.
func (s Suite) Serve(t testing.TB, name string) (*Server, turn.Provider) {
	t.Helper()
	srv := ServeFile(t, filepath.Join(s.Dir, name+".sse"))
	return srv, s.Dial(srv.URL, srv.Client())
}

// Transcript is a recorded reply and what the provider must make of it.
type Transcript struct {
	// Name names the file <Name>.sse in the suite's Dir.
	Name string
	// Want is every chunk before the end or the failure.
	Want []turn.Chunk
	// Fail is the failure the stream ends with; empty for none.
	Fail contract.FailureKind
}

// Transcripts plays each transcript once and compares the chunks and the
// failure the stream ends with.
func (s Suite) Transcripts(t *testing.T, cases []Transcript) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			_, p := s.Serve(t, tt.Name)
			got, err := Collect(context.Background(), p, s.Request())
			if diff := cmp.Diff(tt.Want, got); diff != "" {
				t.Errorf("chunks mismatch (-want +got):\n%s", diff)
			}
			if tt.Fail == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if pe := FailureOf(t, err); pe.Failure != tt.Fail {
				t.Errorf("failure = %s, want %s (%v)", pe.Failure, tt.Fail, err)
			}
		})
	}
}

// RetryThenOK plays the two-response transcripts rate_limited and
// server_error_then_ok as the driver would: the first attempt fails with
// the server's status and no wait, the second yields want.
func (s Suite) RetryThenOK(t *testing.T, want []turn.Chunk) {
	cases := []struct {
		name   string
		fail   contract.FailureKind
		status int
	}{
		{"rate_limited", contract.FailRateLimited, 429},
		{"server_error_then_ok", contract.FailServer, 500},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, p := s.Serve(t, tt.name)
			_, err := Collect(context.Background(), p, s.Request())
			pe := FailureOf(t, err)
			if pe.Failure != tt.fail || pe.Status != tt.status || pe.RetryAfter != 0 || !pe.Retryable() {
				t.Errorf("first attempt: got %s status %d retry after %s, want %s status %d", pe.Failure, pe.Status, pe.RetryAfter, tt.fail, tt.status)
			}
			got, err := Collect(context.Background(), p, s.Request())
			if err != nil {
				t.Fatalf("second attempt: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("second attempt mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// HTTPError is a failed response and how it must classify.
type HTTPError struct {
	Name string
	// Transcript is the response, in Parse's format.
	Transcript string
	Fail       contract.FailureKind
	Status     int
	RetryAfter time.Duration
	// Says, when set, is text the error's text must hold: what the
	// server said, which a host needs to see why (a model name it does
	// not know, a key it refused).
	Says string
}

// HTTPErrors plays each failed response and checks its kind, status and
// wait, what it says, and that the provider asked exactly once: the
// driver retries, not the SDK.
func (s Suite) HTTPErrors(t *testing.T, cases []HTTPError) {
	type got struct {
		Fail       contract.FailureKind
		Status     int
		RetryAfter time.Duration
	}
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv := Serve(t, []byte(tt.Transcript))
			_, err := Collect(context.Background(), s.Dial(srv.URL, srv.Client()), s.Request())
			pe := FailureOf(t, err)
			if diff := cmp.Diff(got{tt.Fail, tt.Status, tt.RetryAfter}, got{pe.Failure, pe.Status, pe.RetryAfter}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if !strings.Contains(err.Error(), tt.Says) {
				t.Errorf("error %q does not say %q", err, tt.Says)
			}
			if n := srv.Served(); n != 1 {
				t.Errorf("served %d requests, want 1: the SDK must not retry", n)
			}
		})
	}
}

// BadRequest is an edit that makes a valid request invalid.
type BadRequest struct {
	Name string
	Edit func(*contract.ModelRequest)
	// Names, when set, is text the error must hold: the field at fault.
	Names string
}

// BadRequests checks that each edited request fails as a final invalid
// request wrapping sentinel, and never reaches the server.
func (s Suite) BadRequests(t *testing.T, sentinel error, cases []BadRequest) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			srv, p := s.Serve(t, "text")
			req := s.Request()
			tt.Edit(&req)
			_, err := Collect(context.Background(), p, req)
			pe := FailureOf(t, err)
			if pe.Failure != contract.FailInvalidRequest || !errors.Is(err, sentinel) {
				t.Errorf("got %v, want invalid_request wrapping %v", err, sentinel)
			}
			if !strings.Contains(err.Error(), tt.Names) {
				t.Errorf("got %v, want it to name %s", err, tt.Names)
			}
			if srv.Served() != 0 {
				t.Errorf("a bad request reached the server")
			}
		})
	}
}
