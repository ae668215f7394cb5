package openai

import (
	"encoding/json"

	"github.com/batonrt/baton/provider/internal/httpfail"
)

// failures classifies this API's failures; only its error frame is its own.
var failures = httpfail.Classifier{API: "openai", Frame: streamErrorFrame}

// streamErrorFrame reads the error object the SDK reports when a stream
// carries {"error": {...}} instead of a chunk. A string code such as
// context_length_exceeded joins the type, since it names the kind more
// exactly.
func streamErrorFrame(err error) (typ, msg string, ok bool) {
	raw, ok := httpfail.StreamedJSON(err)
	if !ok {
		return "", "", false
	}
	var e struct {
		Type    string `json:"type"`
		Code    any    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal([]byte(raw), &e) != nil {
		return "", raw, true
	}
	typ = e.Type
	if code, isString := e.Code.(string); isString {
		typ += " " + code
	}
	return typ, e.Message, true
}
