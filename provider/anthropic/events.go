package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

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
// each unnamed event lacks, until an event comes named: a stream that
// names one names them all, and is read as it is from then on.
type namedEvents struct {
	io.ReadCloser
	r       *bufio.Reader
	out     []byte // read, ready to be passed on
	event   []byte // the lines of the event being read
	data    []byte // its data
	named   bool   // it has an event line
	passing bool
	err     error
}

func (n *namedEvents) Read(p []byte) (int, error) {
	for len(n.out) == 0 {
		switch {
		case n.err != nil:
			return 0, n.err
		case n.passing:
			return n.r.Read(p)
		}
		n.readLine()
	}
	c := copy(p, n.out)
	n.out = n.out[c:]
	return c, nil
}

// readLine reads one line into the event, and passes the event on when
// the line ends it or the stream ends.
func (n *namedEvents) readLine() {
	line, err := n.r.ReadBytes('\n')
	n.event = append(n.event, line...)
	if err != nil {
		n.flush()
		n.err = err
		return
	}
	text := bytes.TrimRight(line, "\r\n")
	name, value, _ := bytes.Cut(text, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch {
	case len(text) == 0:
		n.flush()
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
	n.passing = n.passing || n.named
	n.event, n.data, n.named = n.event[:0], n.data[:0], false
}
