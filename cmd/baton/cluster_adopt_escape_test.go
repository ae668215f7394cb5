package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/wire"
)

// TestAdoptOrphansEscapesItsMessages: a serve process that cannot resume
// a thread a stopped process left says so on stderr with the thread id
// and the error escaped: the id comes from the shared store, the error
// from the thread's opener, and either may hold terminal sequences.
func TestAdoptOrphansEscapesItsMessages(t *testing.T) {
	isolate(t)
	tests := []struct {
		name, thread, openErr, want string
	}{
		{"thread id", "\x1b]0;owned\x07t", "", `baton: resume thread \x1b]0;owned\x07t of a stopped process: wire: thread id "\x1b]0;owned\at" holds a control character`},
		{"error", "t", "cannot open: \x1b[2J\u009b2J", `baton: resume thread t of a stopped process: cannot open: \x1b[2J\x9b2J`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			url := pgtest.SchemaURL(t)
			b, err := postgres.OpenBackend(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			conn, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			// The row a process leaves when it dies holding a session.
			if _, err := conn.Exec(ctx, `INSERT INTO baton_owners (session, epoch, addr) VALUES ($1, 1, 'http://127.0.0.1:1')`, defaultNamespace+tt.thread); err != nil {
				t.Fatal(err)
			}
			h := wire.NewRunnerHandler(func(context.Context, string) (wire.Runner, error) {
				return nil, errors.New(tt.openErr)
			}, wire.HandlerOptions{MaxThreadID: 100})
			defer h.Close()
			stderr := newSyncBuffer()
			a := &app{stderr: stderr}
			actx, cancel := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { defer close(done); a.adoptOrphans(actx, h, b, defaultNamespace, false) }()
			stderr.waitFor(t, "of a stopped process")
			cancel()
			<-done
			if got := strings.TrimSuffix(stderr.String(), "\n"); got != tt.want {
				t.Errorf("stderr %q\nwant   %q", got, tt.want)
			}
		})
	}
}
