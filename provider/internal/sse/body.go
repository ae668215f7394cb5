package sse

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// Max bounds a line, and an event, of a stream a Body reads: the bound
// the SDKs' decoders put on a line.
const Max = bufio.MaxScanTokenSize << 9

// Filter sees each event before a Body passes it on, and may change it.
// An error ends the stream in the event's place: the Body's Read returns
// it once what came before is read. A line break in the Type it sets
// ends the type; one in Data starts a line of data.
type Filter func(*Event) error

// Body is a response body that passes an event stream on an event at a
// time, in the format's plainest form: "event: " and its type when it has
// one, "data: " and a line of its data for each of them, a blank line.
// What the SDK's decoder then reads is what the format says the stream
// holds, whatever line ends, comments, mark or fields it came with; an
// event without data, which the format does not dispatch, is not passed
// on.
type Body struct {
	src    io.ReadCloser
	ctx    context.Context
	events *Reader
	filter Filter
	name   string
	out    []byte // ready to be passed on from off
	off    int
	err    error
}

// NewBody returns a body reading src's events, looking at ctx before
// each read. name prefixes the errors reading them, such as "openai".
// filter may be nil.
func NewBody(ctx context.Context, name string, src io.ReadCloser, filter Filter) *Body {
	return &Body{src: src, ctx: ctx, events: NewReader(src, Max), filter: filter, name: name}
}

// Middleware returns SDK middleware (the Stainless-generated SDKs'
// option.Middleware) that reads a response's event stream through a Body
// with filter; a response of another type passes untouched.
func Middleware(name string, filter Filter) func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	return func(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || resp == nil || resp.Body == nil {
			return resp, err
		}
		if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media == "text/event-stream" {
			resp.Body = NewBody(req.Context(), name, resp.Body, filter)
		}
		return resp, nil
	}
}

func (b *Body) Read(p []byte) (int, error) {
	for b.off == len(b.out) {
		if b.err != nil {
			return 0, b.err
		}
		b.out, b.off = b.out[:0], 0
		b.next()
	}
	n := copy(p, b.out[b.off:])
	b.off += n
	return n, nil
}

// Close closes the stream's body.
func (b *Body) Close() error { return b.src.Close() }

// next reads one event into out, or the error that ends the stream.
func (b *Body) next() {
	e, err := b.events.Next(b.ctx)
	if err == io.EOF {
		b.err = err
		return
	}
	if err != nil {
		b.err = fmt.Errorf("%s: read event stream: %w", b.name, err)
		return
	}
	if b.filter != nil {
		if err := b.filter(&e); err != nil {
			b.err = err
			return
		}
	}
	if e.HasData {
		b.out = appendEvent(b.out, e)
	}
}

// appendEvent writes e as the format's plainest text.
func appendEvent(out []byte, e Event) []byte {
	// A type a filter set with a line break would add a line of its own.
	typ, _, _ := strings.Cut(e.Type, "\n")
	typ, _, _ = strings.Cut(typ, "\r")
	if typ != "" {
		out = append(append(out, "event: "...), typ...)
		out = append(out, '\n')
	}
	for line := range strings.SplitSeq(e.Data, "\n") {
		out = append(append(out, "data: "...), line...)
		out = append(out, '\n')
	}
	return append(out, '\n')
}
