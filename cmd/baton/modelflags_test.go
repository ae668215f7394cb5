package main

import (
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/turn"
)

// TestModelFlags: the model flags of run and serve become the driver's
// options, the retry waits included, with 0 switching a bound off.
func TestModelFlags(t *testing.T) {
	defaults := conductor.Model{
		FirstChunkTimeout: turn.DefaultFirstChunkTimeout, IdleTimeout: turn.DefaultIdleTimeout, TotalTimeout: turn.DefaultTotalTimeout,
		MaxRetries: turn.DefaultMaxRetries, MaxRetryWait: turn.DefaultMaxRetryWait, RetryBudget: turn.DefaultRetryBudget,
	}
	with := func(change func(*conductor.Model)) conductor.Model {
		m := defaults
		change(&m)
		return m
	}
	tests := []struct {
		name string
		args []string
		want conductor.Model
	}{
		{"defaults", nil, defaults},
		{"timeouts", []string{"--first-chunk-timeout", "5s", "--stall-timeout", "6s", "--model-timeout", "7m"}, with(func(m *conductor.Model) {
			m.FirstChunkTimeout, m.IdleTimeout, m.TotalTimeout = 5*time.Second, 6*time.Second, 7*time.Minute
		})},
		{"no retries", []string{"--retries", "0"}, with(func(m *conductor.Model) { m.MaxRetries = turn.NoRetries })},
		{"retry waits", []string{"--max-retry-wait", "30s", "--retry-budget", "90s"}, with(func(m *conductor.Model) {
			m.MaxRetryWait, m.RetryBudget = 30*time.Second, 90*time.Second
		})},
		{"retry waits unbounded", []string{"--max-retry-wait", "0", "--retry-budget", "0s"}, with(func(m *conductor.Model) {
			m.MaxRetryWait, m.RetryBudget = -1, -1
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &app{stdout: io.Discard, stderr: io.Discard}
			fs := a.newFlags("run", "PROMPT", "")
			m := addModelFlags(fs)
			if _, err := fs.parse(tt.args, 0, 0); err != nil {
				t.Fatal(err)
			}
			got, err := m.options(fs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
		})
	}
}
