package wire

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// FuzzCursor: no Last-Event-ID panics the parser or points outside the
// stream; an id the projector wrote resumes right after its event, and
// any other accepted id resumes after a committed event.
func FuzzCursor(f *testing.F) {
	events := wt.LiveRun()
	written := map[string]int{} // SSE id -> events the client has
	p := agui.NewProjector("thread-1")
	for i, ev := range events {
		for _, a := range p.Project(ev) {
			if a.ID != "" {
				written[a.ID] = i + 1
			}
		}
	}
	for id := range written {
		f.Add(id)
	}
	f.Add("")
	f.Add("1.99")
	f.Add("18446744073709551615.4294967295")
	f.Add("-1")
	f.Add("3+2")
	f.Add("3.1:0,4,-+1")
	f.Add("3.1:0,4,-~1a+1")
	f.Add("3+0")
	f.Add("3+")
	f.Add("3+thread-1%2F2.0:4.2")
	f.Add("3+thread-1%2F2.0:4")
	f.Add("3+:4")
	f.Add("3+a%zz:4")
	f.Add("3+a:4.0")
	f.Add("1.1+0:0")
	f.Fuzz(func(t *testing.T, id string) {
		c, err := parseCursor(id)
		if err != nil {
			if _, ok := written[id]; ok {
				t.Fatalf("refused %q, an id the projector wrote", id)
			}
			return
		}
		n := c.had(events)
		if want, ok := written[id]; ok && n != want {
			t.Fatalf("%q resumes after %d events, want %d", id, n, want)
		}
		if n < 0 || n > len(events) || (n > 0 && events[n-1].Delta > 0 && !names(c, events[n-1])) {
			t.Fatalf("%q resumes after %d events, not after a committed event or the one it names", id, n)
		}
	})
}

// names reports whether c names ev itself: an event of the stream's own
// run by its seq and delta, a delegated run's by its session's too. An
// id naming a delegated event the stream does not hold leaves the client
// right after the event of its own run the id names first.
func names(c cursor, ev contract.RunEvent) bool {
	if c.in != nil && len(ev.Subflow) > 0 {
		return ev.SessionID == c.in.session && ev.Seq == c.in.seq && ev.Delta == c.in.delta
	}
	return len(ev.Subflow) == 0 && ev.Seq == c.seq && ev.Delta == c.delta
}
