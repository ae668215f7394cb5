package mcp

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNextRestart: the wait before a restart is a pause after the last
// try ended (a start that failed, or a connection that ended), doubling
// with each restart in the window, so that a start that takes longer
// than the backoff to fail is not tried again at once.
func TestNextRestart(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	tests := []struct {
		name      string
		restarted []time.Time
		lastEnded time.Time
		now       time.Time
		want      time.Duration
		wantErr   bool
	}{
		{name: "first restart", lastEnded: at(0), now: at(0), want: 0},
		{name: "second, right after the first failed", restarted: []time.Time{at(0)}, lastEnded: at(10 * time.Millisecond), now: at(10 * time.Millisecond), want: 250 * time.Millisecond},
		{name: "second, after a start that took a second to fail", restarted: []time.Time{at(0)}, lastEnded: at(time.Second), now: at(time.Second), want: 250 * time.Millisecond},
		{name: "second, long after the first ended", restarted: []time.Time{at(0)}, lastEnded: at(time.Second), now: at(20 * time.Second), want: 0},
		{name: "third doubles", restarted: []time.Time{at(0), at(time.Second)}, lastEnded: at(2 * time.Second), now: at(2 * time.Second), want: 500 * time.Millisecond},
		{name: "the window forgets", restarted: []time.Time{at(0), at(time.Second)}, lastEnded: at(60500 * time.Millisecond), now: at(60500 * time.Millisecond), want: 250 * time.Millisecond},
		{name: "past the cap", restarted: []time.Time{at(0), at(time.Second), at(2 * time.Second)}, lastEnded: at(3 * time.Second), now: at(3 * time.Second), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Source{srv: Server{Name: "x", MaxRestarts: 3, RestartWindow: time.Minute}, restarted: tt.restarted, lastEnded: tt.lastEnded}
			got, err := s.nextRestart(tt.now)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("wait mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEndedWords: the log line of an ended connection says the next
// call makes it again only while a restart is left in the window, and
// otherwise when one will be.
func TestEndedWords(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	tests := []struct {
		name      string
		url       string
		restarted []time.Time
		now       time.Time
		want      string
	}{
		{name: "none yet", now: at(0), want: "the next call starts it again"},
		{name: "one left", restarted: []time.Time{at(0)}, now: at(time.Second), want: "the next call starts it again"},
		{name: "cap reached", restarted: []time.Time{at(0), at(10 * time.Second)}, now: at(20 * time.Second),
			want: "not started again: it was restarted 2 times within 1m0s, the most allowed, so its tools give error results until a call after 40s starts it again"},
		{name: "cap reached, rounded up", restarted: []time.Time{at(0), at(10 * time.Second)}, now: at(20*time.Second + 300*time.Millisecond),
			want: "not started again: it was restarted 2 times within 1m0s, the most allowed, so its tools give error results until a call after 40s starts it again"},
		{name: "the window forgot one", restarted: []time.Time{at(0), at(10 * time.Second)}, now: at(61 * time.Second), want: "the next call starts it again"},
		{name: "over http", url: "http://127.0.0.1:1/mcp", restarted: []time.Time{at(0), at(10 * time.Second)}, now: at(20 * time.Second),
			want: "not connected again: it was reconnected 2 times within 1m0s, the most allowed, so its tools give error results until a call after 40s connects again"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Source{srv: Server{Name: "x", URL: tt.url, MaxRestarts: 2, RestartWindow: time.Minute}, restarted: tt.restarted}
			if diff := cmp.Diff(tt.want, s.endedWords(tt.now)); diff != "" {
				t.Errorf("words mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
