package openai

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/openai/openai-go/v3/option"
)

// maxEvent bounds one event of a stream, as the SDK bounds one line.
const maxEvent = bufio.MaxScanTokenSize << 9

// errorEvent is an event a stream named "error", or one with an "error"
// field in place of data, as llama.cpp's server sent failures through
// 2025: the server's failure, whatever its data says. The SDK reads the
// first as a chunk, an empty one without an "error" key, and drops the
// unknown field of the second, so the reply before either would pass
// for a whole one once [DONE] followed.
type errorEvent struct{ data string }

func (e *errorEvent) Error() string { return "openai: error event in stream: " + e.data }

// watchErrors returns a request option that ends an event stream with an
// *errorEvent at its first error event.
func watchErrors() option.RequestOption {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || resp == nil || resp.Body == nil {
			return resp, err
		}
		if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media == "text/event-stream" {
			resp.Body = &errorEvents{ReadCloser: resp.Body, r: bufio.NewReader(resp.Body)}
		}
		return resp, nil
	})
}

// errorEvents reads an event stream an event at a time, passing each on
// whole, until an error event ends it. A whole event is read
// before it is passed on because its name may follow its data.
type errorEvents struct {
	io.ReadCloser
	r      *bufio.Reader
	out    []byte // read, ready to be passed on from off
	off    int
	event  []byte // the lines of the event being read
	data   []byte // its data
	failed bool   // it is an error event
	err    error
}

func (e *errorEvents) Read(p []byte) (int, error) {
	for e.off == len(e.out) {
		if e.err != nil {
			return 0, e.err
		}
		e.out, e.off = e.out[:0], 0
		e.readLine()
	}
	n := copy(p, e.out[e.off:])
	e.off += n
	return n, nil
}

// readLine reads one line into the event, and ends the event when the
// line is blank or the stream ends.
func (e *errorEvents) readLine() {
	start := len(e.event)
	for {
		part, err := e.r.ReadSlice('\n')
		e.event = append(e.event, part...)
		if len(e.event) > maxEvent {
			e.err = errors.New("openai: stream event too long")
			return
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			e.end()
			if e.err == nil {
				e.err = err
			}
			return
		}
		break
	}
	line := bytes.TrimRight(e.event[start:], "\r\n")
	name, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch {
	case len(line) == 0:
		e.end()
	case string(name) == "event":
		e.failed = e.failed || string(value) == "error"
	case string(name) == "data":
		e.data = append(append(e.data, value...), '\n')
	case string(name) == "error":
		e.failed = true
		e.data = append(append(e.data, value...), '\n')
	}
}

// end passes the event on, or ends the stream with it if it is an error.
func (e *errorEvents) end() {
	if e.failed {
		e.err = &errorEvent{data: string(bytes.TrimSuffix(e.data, []byte("\n")))}
	} else {
		e.out = append(e.out, e.event...)
	}
	e.event, e.data, e.failed = e.event[:0], e.data[:0], false
}
