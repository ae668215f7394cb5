package sse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// ErrTooLong is wrapped by the error of a line, or an event, longer than
// a Reader's bound: a stream that never ends its line must not be held in
// memory for as long as it keeps sending.
var ErrTooLong = errors.New("too long")

// readSize is how much a Reader asks of its source at a time.
const readSize = 32 << 10

// maxEmptyReads bounds the reads in a row that return nothing and no
// error, as bufio does, before the source is taken for broken.
const maxEmptyReads = 100

// bom is UTF-8's byte order mark, which the format lets a stream open
// with.
var bom = []byte("\ufeff")

// Reader reads the events of one stream, as the format's parser does.
type Reader struct {
	src        io.Reader
	max        int
	buf        []byte // read from src; start to end is not parsed yet
	start, end int
	line       []byte // the line being read, once it spans reads
	began      bool   // the stream's start has been looked at for a mark
	cr         bool   // the last line ended with CR: a LF next is its end too
	err        error  // what ended src
	// The event being read.
	typ     string
	data    []byte // each data value with a line feed after it
	hasData bool
	fields  []Field
	size    int // bytes of the event's fields so far
}

// NewReader returns a reader of src's events that refuses a line or an
// event of more than max bytes.
func NewReader(src io.Reader, max int) *Reader { return &Reader{src: src, max: max} }

// Next returns the next event. It returns io.EOF, unwrapped, when the
// stream ends; an event the stream ends in the middle of, before its
// blank line, is dropped, as the format says. An error reading src is
// returned as it came, and ctx is looked at before every read.
func (r *Reader) Next(ctx context.Context) (Event, error) {
	for {
		line, err := r.readLine(ctx)
		if err != nil {
			return Event{}, err
		}
		if e, ok := r.process(line); ok {
			return e, nil
		}
		if r.size > r.max {
			return Event{}, fmt.Errorf("sse: event %w: more than %d bytes", ErrTooLong, r.max)
		}
	}
}

// readLine returns the next line without its end (CRLF, LF or CR). The
// line is valid until the next call.
func (r *Reader) readLine(ctx context.Context) ([]byte, error) {
	r.line = r.line[:0]
	for {
		if r.start == r.end {
			if err := r.fill(ctx); err != nil {
				return nil, err
			}
			continue
		}
		chunk := r.buf[r.start:r.end]
		if r.cr {
			r.cr = false
			if chunk[0] == '\n' {
				r.start++
				continue
			}
		}
		i := bytes.IndexAny(chunk, "\r\n")
		if i < 0 {
			i = len(chunk)
		}
		if len(r.line)+i > r.max {
			return nil, fmt.Errorf("sse: line %w: more than %d bytes", ErrTooLong, r.max)
		}
		if i == len(chunk) {
			r.line = append(r.line, chunk...)
			r.start = r.end
			continue
		}
		r.start += i + 1
		r.cr = chunk[i] == '\r'
		if len(r.line) == 0 {
			return chunk[:i], nil
		}
		r.line = append(r.line, chunk[:i]...)
		return r.line, nil
	}
}

// fill reads more of src into the emptied buffer. At the stream's start
// it reads until a byte order mark could be told apart, and drops one.
func (r *Reader) fill(ctx context.Context) error {
	if r.err != nil {
		return r.err
	}
	if r.buf == nil {
		r.buf = make([]byte, readSize)
	}
	r.start, r.end = 0, 0
	want := 1
	if !r.began {
		want = len(bom)
	}
	for empty := 0; r.end < want; {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if err != nil {
			r.err = err
			break
		}
		if n == 0 {
			if empty++; empty == maxEmptyReads {
				r.err = io.ErrNoProgress
				break
			}
		}
	}
	if !r.began {
		r.began = true
		if bytes.HasPrefix(r.buf[:r.end], bom) {
			r.start = len(bom)
		}
	}
	if r.start == r.end {
		return r.err
	}
	return nil
}

// process takes one line into the event being read, and returns the
// event when the line is the blank one that ends it.
func (r *Reader) process(line []byte) (Event, bool) {
	if len(line) == 0 {
		return r.dispatch()
	}
	if line[0] == ':' {
		return Event{}, false // a comment
	}
	name, value, _ := bytes.Cut(line, []byte(":"))
	value = bytes.TrimPrefix(value, []byte(" "))
	switch string(name) {
	case "event":
		r.typ = string(value)
	case "data":
		r.data = append(append(r.data, value...), '\n')
		r.hasData = true
	case "id", "retry":
		// No reconnection here: the turn driver retries a call whole.
	default:
		r.fields = append(r.fields, Field{Name: string(name), Value: string(value)})
	}
	r.size += len(line)
	return Event{}, false
}

// dispatch ends the event being read and returns it, when it has data or
// a field the format gives no meaning to.
func (r *Reader) dispatch() (Event, bool) {
	e := Event{Type: r.typ, Data: string(bytes.TrimSuffix(r.data, []byte("\n"))), HasData: r.hasData, Fields: r.fields}
	ok := r.hasData || len(r.fields) > 0
	r.typ, r.data, r.hasData, r.fields, r.size = "", r.data[:0], false, nil, 0
	return e, ok
}
