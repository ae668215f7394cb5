package main

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/wire"
)

// TestAdoptOrphansLeavesDelegatesToTheirParent: a serve process that
// dies during a delegated run leaves two sessions behind, the thread's
// and its delegate's ("serve-t/3.0"), both with an address and a free
// lock. The delegate's run resumes with its parent's thread, never as a
// thread of its own, so a process adopting what the dead one left opens
// only the parent, and says nothing of the delegate: a line saying a
// thread of a stopped process could not be resumed would send an
// operator looking for a failure that is not there. With users, a
// thread's id may itself look like a step ("alice/1.2"): that one is a
// thread, and is opened.
func TestAdoptOrphansLeavesDelegatesToTheirParent(t *testing.T) {
	isolate(t)
	tests := []struct {
		name    string
		users   []wire.User
		orphans []string
		want    string
	}{
		{"threads", nil, []string{"t", "t/3.0", "u"},
			"baton: resume thread t of a stopped process: not opened here\n" +
				"baton: resume thread u of a stopped process: not opened here\n"},
		{"users", []wire.User{{Name: "alice", Token: "secret"}}, []string{"alice/1.2", "alice/1.2/5.0", "alice/u"},
			"baton: resume thread alice/1.2 of a stopped process: not opened here\n" +
				"baton: resume thread alice/u of a stopped process: not opened here\n"},
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
			// The rows a process leaves when it dies holding a thread, the
			// thread's delegate, and a second thread, listed after both.
			for _, s := range tt.orphans {
				if _, err := conn.Exec(ctx, `INSERT INTO baton_owners (session, epoch, addr) VALUES ($1, 1, 'http://127.0.0.1:1')`, defaultNamespace+s); err != nil {
					t.Fatal(err)
				}
			}
			h := wire.NewRunnerHandler(func(context.Context, string) (wire.Runner, error) {
				return nil, errors.New("not opened here")
			}, wire.HandlerOptions{MaxThreadID: 100, Users: tt.users})
			defer h.Close()
			stderr := newSyncBuffer()
			a := &app{stderr: stderr}
			actx, cancel := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { defer close(done); a.adoptOrphans(actx, h, b, defaultNamespace, len(tt.users) > 0) }()
			// The orphans are looked at in order: once the last is said,
			// the delegate's would have been.
			stderr.waitFor(t, "resume thread "+tt.orphans[2])
			cancel()
			<-done
			if d := cmp.Diff(tt.want, stderr.String()); d != "" {
				t.Errorf("stderr mismatch (-want +got):\n%s", d)
			}
		})
	}
}
