package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// maxEvent bounds one event of a stream, as the SDK bounds one line: an
// event held until it ends must not grow without end.
const maxEvent = bufio.MaxScanTokenSize << 9

// errEventTooLong ends a stream whose event passed maxEvent.
var errEventTooLong = errors.New("anthropic: stream event too long")

// nameEvents gives every event of an event stream its "event:" line.
// The Messages API names each event, and the SDK skips an event without
// a name; some gateways relay the events as bare data lines, whose
// reply would come out empty. The event's JSON says its type, which is
// its name.
func nameEvents(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media == "text/event-stream" {
		resp.Body = &namedEvents{ReadCloser: resp.Body, r: bufio.NewReader(resp.Body)}
	}
	return resp, nil
}

// namedEvents reads an event stream an event at a time, adding the name
// each unnamed event lacks. Every event is looked at, not only those
// before the first named one: a gateway may name some events (its own
// pings, the first it passes on) and not the rest.
type namedEvents struct {
	io.ReadCloser
	r     *bufio.Reader
	out   []byte // read, ready to be passed on from off
	off   int
	event []byte // the lines of the event being read
	data  []byte // its data
	named bool   // it has an event line with a name
	err   error
}

func (n *namedEvents) Read(p []byte) (int, error) {
	for n.off == len(n.out) {
		if n.err != nil {
			return 0, n.err
		}
		n.out, n.off = n.out[:0], 0
		n.readLine()
	}
	c := copy(p, n.out[n.off:])
	n.off += c
	return c, nil
}

// readLine reads one line into the event, and passes the event on when
// the line ends it or the stream ends. The line is read in place, as a
// named stream has every line looked at.
func (n *namedEvents) readLine() {
	start := len(n.event)
	for {
		part, err := n.r.ReadSlice('\n')
		n.event = append(n.event, part...)
		if len(n.event) > maxEvent {
			n.err = errEventTooLong
			return
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			n.flush()
			n.err = err
			return
		}
		break
	}
	text := bytes.TrimRight(n.event[start:], "\r\n")
	name, value, _ := bytes.Cut(text, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch {
	case len(text) == 0:
		n.flush()
	case string(name) == "event" && len(value) == 0:
		// An empty name is no name: the SDK would skip the event, and
		// would read it, named or not, as the last event line says.
		n.event = n.event[:start]
	case string(name) == "event":
		n.named = true
	case string(name) == "data":
		n.data = append(append(n.data, value...), '\n')
	}
}

// flush passes the event on, named by its JSON's type if it came
// without a name.
func (n *namedEvents) flush() {
	if !n.named && len(n.data) > 0 {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(n.data, &head) == nil && head.Type != "" {
			n.out = append(append(append(n.out, "event: "...), head.Type...), '\n')
		}
	}
	n.out = append(n.out, n.event...)
	n.event, n.data, n.named = n.event[:0], n.data[:0], false
}
