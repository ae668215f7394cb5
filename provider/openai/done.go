package openai

import (
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared/constant"

	"github.com/batonrt/baton/provider/internal/sse"
	"github.com/batonrt/baton/turn/relay"
)

// doneObject marks the chunk doneEvents adds after "data: [DONE]"; no
// server sends it as a chunk's object.
const doneObject = constant.ChatCompletionChunk("[DONE]")

// doneEvents is a chat completion stream that tells its decoder, with one
// last chunk of doneObject, that the server ended it with "data: [DONE]".
// The SDK ends its stream alike at [DONE] and where the body merely
// stops, and a server that never sends a finish_reason leaves [DONE] the
// one sign that its reply was whole rather than cut.
type doneEvents struct {
	relay.Events[sdk.ChatCompletionChunk]
	watch *streamWatch
	told  bool
}

func (e *doneEvents) Next() bool {
	if e.Events.Next() {
		return true
	}
	if e.told || e.Events.Err() != nil || !e.watch.done {
		return false
	}
	e.told = true
	return true
}

func (e *doneEvents) Current() sdk.ChatCompletionChunk {
	if e.told {
		return sdk.ChatCompletionChunk{Object: doneObject}
	}
	return e.Events.Current()
}

// streamWatch looks at each event of a stream before the SDK reads it
// (see sse.Body), on the goroutine that reads the stream.
type streamWatch struct {
	// done says whether an event's data began as the SDK's end marker
	// does, "[DONE]".
	done bool
}

// option returns the request option that has w look at the stream.
func (w *streamWatch) option() option.RequestOption {
	return option.WithMiddleware(sse.Middleware("openai", w.look))
}

// look notes [DONE], and ends the stream with an *errorEvent at its
// first error event.
func (w *streamWatch) look(e *sse.Event) error {
	if msg, ok := e.Field("error"); ok {
		return &errorEvent{data: msg}
	}
	if e.Type == "error" {
		return &errorEvent{data: e.Data}
	}
	w.done = w.done || (e.HasData && strings.HasPrefix(e.Data, "[DONE]"))
	return nil
}
