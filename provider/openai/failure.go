package openai

import (
	"encoding/json"
	"errors"
	"strings"

	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/turn/httpfail"
)

// failures classifies this API's failures; only its error frame is its own.
var failures = httpfail.Classifier{API: "openai", Frame: streamErrorFrame, Detail: errorDetail, Said: errorMessage}

// errorDetail reads the error object of a failed response, since the
// SDK's error text names only the status.
func errorDetail(err error) string {
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) {
		return ""
	}
	return strings.Join([]string{apiErr.Type, apiErr.Code, apiErr.Message}, " ")
}

// errorMessage is the message of a failed response's error object, which
// the SDK's error text leaves out.
func errorMessage(err error) string {
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) {
		return ""
	}
	return apiErr.Message
}

// streamErrorFrame reads the error object the SDK reports when a stream
// carries {"error": {...}} instead of a chunk, or the data of an event
// named "error" (see errorEvent), which may hold the object bare,
// wrapped in "error", or be plain text. A string code such as
// context_length_exceeded joins the type, since it names the kind more
// exactly.
func streamErrorFrame(err error) (typ, msg string, ok bool) {
	var raw string
	var ev *errorEvent
	if errors.As(err, &ev) {
		raw = ev.data
	} else if raw, ok = httpfail.StreamedJSON(err); !ok {
		return "", "", false
	}
	type frame struct {
		Type    string `json:"type"`
		Code    any    `json:"code"`
		Message string `json:"message"`
	}
	var e struct {
		frame
		Error *frame `json:"error"`
	}
	if json.Unmarshal([]byte(raw), &e) != nil {
		return "", raw, true
	}
	f := e.frame
	if e.Error != nil {
		f = *e.Error
	}
	typ = f.Type
	if code, isString := f.Code.(string); isString {
		typ += " " + code
	}
	return typ, f.Message, true
}
