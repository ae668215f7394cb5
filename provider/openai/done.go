package openai

import (
	"io"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared/constant"

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
	body *doneBody
	told bool
}

func (e *doneEvents) Next() bool {
	if e.Events.Next() {
		return true
	}
	if e.told || e.Events.Err() != nil || !e.body.done {
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

// watchDone returns a request option that has body note a [DONE] line in
// the response; body is read on the goroutine that reads the stream.
func watchDone(body *doneBody) option.RequestOption {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil && resp != nil && resp.Body != nil {
			body.ReadCloser = resp.Body
			resp.Body = body
		}
		return resp, err
	})
}

// doneBody reads an event stream and notes a line starting as the SDK's
// end marker does: "data:", an optional space, "[DONE]".
type doneBody struct {
	io.ReadCloser
	head [len("data: [DONE]")]byte
	n    int
	done bool
}

func (b *doneBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			b.n = 0
			continue
		}
		if b.n < len(b.head) {
			b.head[b.n] = c
			b.n++
			line := string(b.head[:b.n])
			b.done = b.done || line == "data: [DONE]" || line == "data:[DONE]"
		}
	}
	return n, err
}
