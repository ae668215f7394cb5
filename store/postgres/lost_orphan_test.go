package postgres

import (
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// An owner whose lock connection died (the server restarted, the network
// dropped it) is told its lock is lost and stops driving the session,
// with its run in flight; it then lets the lock go, as a holder does
// once it stops. The session must stay an orphan, as it is when its
// owner dies: that release must not withdraw the address, or no
// process takes the run up until a client happens to ask for the
// thread. Whether the release comes before the owner learned of the
// loss or after, and by Close or by closing the backend, the lock is
// already free, and the address stays.
func TestReleaseOfALostLockLeavesAnOrphan(t *testing.T) {
	tests := []struct {
		name    string
		told    bool
		release func(b *Backend, l store.LosableLock) error
	}{
		{"close before told", false, func(_ *Backend, l store.LosableLock) error { return l.Close() }},
		{"close once told", true, func(_ *Backend, l store.LosableLock) error { return l.Close() }},
		{"backend closed", true, func(b *Backend, _ store.LosableLock) error { return b.Close() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			ba, bb := twoBackends(t)
			ba.Advertise("http://a")
			c, err := ba.Lock(ctx, "s")
			if err != nil {
				t.Fatal(err)
			}
			l := c.(store.LosableLock)
			terminateOwner(t, ba)
			if tt.told {
				select {
				case <-l.Lost().Done():
				case <-time.After(time.Minute):
					t.Fatal("not told of the lost lock within a minute")
				}
			}
			if err := tt.release(ba, l); err != nil {
				t.Fatal(err)
			}
			got, err := bb.Orphans(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff([]string{"s"}, got); d != "" {
				t.Errorf("orphans mismatch (-want +got):\n%s", d)
			}
		})
	}
}
