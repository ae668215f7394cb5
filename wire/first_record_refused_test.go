package wire

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/wire/agui"
)

// TestAThreadWhoseFirstRecordIsRefusedTakesTheNextMessage: the store
// refuses the first record of a new thread's session. The stream says
// so with the store's error, and once the store works again the same
// message starts the thread's first run.
func TestAThreadWhoseFirstRecordIsRefusedTakesTheNextMessage(t *testing.T) {
	var broken atomic.Bool
	broken.Store(true)
	release := make(chan struct{})
	close(release)
	_, srv := breakableServer(t, breakableStore{store.NewMemory(), &broken, errDiskGone}, release)
	user := map[string]any{"id": "m1", "role": "user", "content": "one"}

	code, events := postAGUI(t, srv.URL, user)
	if code != http.StatusOK || !hasEvent(events, agui.RunError, string(contract.KindStore)) {
		t.Fatalf("with the store refusing: status %d, events %+v; want a RUN_ERROR of code store", code, events)
	}
	broken.Store(false)
	code, events = postAGUI(t, srv.URL, user)
	if code != http.StatusOK || !hasEvent(events, agui.RunFinished, "") {
		t.Fatalf("with the store working again: status %d, events %+v; want RUN_FINISHED", code, events)
	}
}

// hasEvent reports whether events hold one of type typ, with code when
// code is set.
func hasEvent(events []agui.Event, typ, code string) bool {
	for _, ev := range events {
		if ev.Type == typ && (code == "" || ev.Code == code) {
			return true
		}
	}
	return false
}
