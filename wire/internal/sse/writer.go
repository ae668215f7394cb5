package sse

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ErrBadField is returned for an id or event name that would break the
// framing (it holds a line break or a NUL).
var ErrBadField = errors.New("sse: field holds a line break or NUL")

// Writer writes Server-Sent Events. It flushes after every event when
// the writer is an http.Flusher, so events reach the client as they are
// produced; Batch writes several at once.
type Writer struct {
	w   io.Writer
	buf []byte
	// batch holds what Batch's function writes, while batching.
	batch    []byte
	batching bool
}

// New returns an encoder writing to w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// WriteEvent writes one event: its id (omitted when empty), its event name
// (omitted when empty) and its data, one "data:" line per line of data.
// Line breaks in data (\n, \r\n or \r) survive as \n, the only form the
// SSE format can carry.
func (s *Writer) WriteEvent(id, event string, data []byte) error {
	if strings.ContainsAny(id, "\r\n\x00") || strings.ContainsAny(event, "\r\n") {
		return ErrBadField
	}
	b := s.buf[:0]
	if id != "" {
		b = append(append(append(b, "id: "...), id...), '\n')
	}
	if event != "" {
		b = append(append(append(b, "event: "...), event...), '\n')
	}
	for {
		i := indexLineBreak(data)
		if i < 0 {
			break
		}
		b = append(append(append(b, "data: "...), data[:i]...), '\n')
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	b = append(append(append(b, "data: "...), data...), "\n\n"...)
	s.buf = b
	return s.send(b)
}

// Batch writes the events fn writes as one write, flushed once, and
// nothing when fn fails. A process that dies hands its connection all of
// them or none: a client never holds some of them without the rest,
// past the newest id it got, where a resumed stream, which starts after
// that id, would send them again.
func (s *Writer) Batch(fn func() error) error {
	if s.batching {
		return fn()
	}
	s.batching, s.batch = true, s.batch[:0]
	err := fn()
	s.batching = false
	if err != nil || len(s.batch) == 0 {
		return err
	}
	if _, err := s.w.Write(s.batch); err != nil {
		return fmt.Errorf("sse: write: %w", err)
	}
	s.flush()
	return nil
}

// send writes and flushes b, or keeps it for the batch.
func (s *Writer) send(b []byte) error {
	if s.batching {
		s.batch = append(s.batch, b...)
		return nil
	}
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("sse: write: %w", err)
	}
	s.flush()
	return nil
}

// WriteComment writes an SSE comment line, which clients ignore; it keeps
// idle connections alive through proxies.
func (s *Writer) WriteComment(text string) error {
	if strings.ContainsAny(text, "\r\n") {
		return ErrBadField
	}
	return s.send([]byte(": " + text + "\n\n"))
}

// WriteJSON writes v, encoded as JSON, as the data of an event with id.
func (s *Writer) WriteJSON(id string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("sse: encode %T: %w", v, err)
	}
	return s.WriteEvent(id, "", data)
}

func (s *Writer) flush() {
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func indexLineBreak(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}
