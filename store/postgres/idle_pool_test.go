package postgres

import (
	"fmt"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A server or role that ends idle sessions must not fail the statement
// that next takes a pooled connection: the pool checks a connection only
// after a second idle, so one ended sooner than that was handed out dead,
// and a commit or a lock failed with an i/o error.
func TestPooledConnectionsOutliveIdleSessionTimeout(t *testing.T) {
	ctx := t.Context()
	s := store.New(openBackend(t, pgtest.SchemaURL(t)+"&idle_session_timeout=100"))
	defer s.Close()
	for i := range 3 {
		// Longer than the server's timeout, shorter than the pool's check.
		time.Sleep(300 * time.Millisecond)
		if _, err := s.Lock(ctx, fmt.Sprint("s", i)); err != nil {
			t.Fatalf("lock %d after the pool's connection sat idle: %v", i, err)
		}
	}
}
