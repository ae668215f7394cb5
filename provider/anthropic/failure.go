package anthropic

import (
	"encoding/json"
	"errors"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/batonrt/baton/turn/httpfail"
)

// failures classifies this API's failures; only its error frame is its own.
var failures = httpfail.Classifier{API: "anthropic", Frame: streamErrorFrame}

// streamErrorFrame reads the error event a stream carries in place of
// its next event: {"type":"error","error":{"type":...,"message":...}}.
// The SDK reports it either as an *sdk.Error holding the event or as
// text around the event's JSON.
func streamErrorFrame(err error) (typ, msg string, ok bool) {
	var raw string
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		raw = apiErr.RawJSON()
	} else if raw, ok = httpfail.StreamedJSON(err); !ok {
		return "", "", false
	}
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &e) != nil {
		return "", raw, true
	}
	return e.Error.Type, e.Error.Message, true
}
