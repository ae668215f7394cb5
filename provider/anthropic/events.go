package anthropic

import (
	"encoding/json"

	"github.com/batonrt/baton/provider/internal/sse"
)

// nameEvents gives every event of an event stream its type as its name.
// The Messages API names each event, and the SDK skips an event without
// a name; some gateways relay the events as bare data lines, or with an
// empty "event:" line, whose reply would come out empty. The event's
// JSON says its type, which is its name. Every event is looked at, not
// only those before the first named one: a gateway may name some events
// (its own pings, the first it passes on) and not the rest.
var nameEvents = sse.Middleware("anthropic", nameEvent)

// nameEvent names e by its JSON's type if it came without a name.
func nameEvent(e *sse.Event) error {
	if e.Type != "" || !e.HasData {
		return nil
	}
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal([]byte(e.Data), &head) == nil {
		e.Type = head.Type
	}
	return nil
}
