package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ErrBadSSEField is returned for an SSE id or event name that would break
// the framing (it holds a line break or a NUL).
var ErrBadSSEField = errors.New("wire: sse field holds a line break or NUL")

// SSEWriter writes Server-Sent Events. It flushes after every event when
// the writer is an http.Flusher, so events reach the client as they are
// produced.
type SSEWriter struct {
	w   io.Writer
	buf []byte
}

// NewSSEWriter returns an encoder writing to w.
func NewSSEWriter(w io.Writer) *SSEWriter { return &SSEWriter{w: w} }

// WriteEvent writes one event: its id (omitted when empty), its event name
// (omitted when empty) and its data, one "data:" line per line of data.
// Line breaks in data (\n, \r\n or \r) survive as \n, the only form the
// SSE format can carry.
func (s *SSEWriter) WriteEvent(id, event string, data []byte) error {
	if strings.ContainsAny(id, "\r\n\x00") || strings.ContainsAny(event, "\r\n") {
		return ErrBadSSEField
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
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("wire: write sse: %w", err)
	}
	s.flush()
	return nil
}

// WriteComment writes an SSE comment line, which clients ignore; it keeps
// idle connections alive through proxies.
func (s *SSEWriter) WriteComment(text string) error {
	if strings.ContainsAny(text, "\r\n") {
		return ErrBadSSEField
	}
	if _, err := io.WriteString(s.w, ": "+text+"\n\n"); err != nil {
		return fmt.Errorf("wire: write sse: %w", err)
	}
	s.flush()
	return nil
}

// WriteAGUI writes one AG-UI event as JSON data with its id.
func (s *SSEWriter) WriteAGUI(ev AGUIEvent) error {
	data, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("wire: encode %s: %w", ev.Type, err)
	}
	return s.WriteEvent(ev.ID, "", data)
}

func (s *SSEWriter) flush() {
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
