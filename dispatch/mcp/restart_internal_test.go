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
