package mcp

import (
	"bufio"
	"io"
)

// maxSkipped bounds how much of a skipped line is handed on.
const maxSkipped = 256

// maxSkipWarnings bounds the warnings of skipped lines in one run of a
// command: a server that prints its debug output to stdout would
// otherwise flood the host's log with a line for each of its own.
const maxSkipWarnings = 10

// skippedLines is told each line one run of the command writes to its
// stdout that is no message: it warns of the first maxSkipWarnings and
// says, with the last, that the rest are skipped without a warning. It
// is called from the connection's reading goroutine only.
func (s *Source) skippedLines() func(line string) {
	n := 0
	return func(line string) {
		n++
		switch {
		case n < maxSkipWarnings:
			s.log.Warn("mcp: server wrote a line that is no message to its stdout; skipped", "server", s.srv.Name, "line", line)
		case n == maxSkipWarnings:
			s.log.Warn("mcp: server wrote a line that is no message to its stdout; skipped, as are its further lines that are no messages, without a warning", "server", s.srv.Name, "line", line)
		}
	}
}

// messageLines is a command's stdout without the lines that cannot be
// messages. The MCP specification allows only messages there, yet
// servers print banners and debug lines to it, and the SDK ends the
// whole connection, and the calls in flight, at the first byte that is
// not JSON. A line whose first byte that is not blank opens an object,
// or an array (a batch) of objects, is passed on, unless it opens an
// object that closes on the line without a jsonrpc member (a log line in
// JSON; see peekObject); any other line is handed, cut to maxSkipped bytes, to
// skipped. A message line is passed
// on as it arrives, however long, and so are the lines after it while
// its brackets are still open.
type messageLines struct {
	r       *bufio.Reader
	skipped func(line string)
	head    []byte // what was read of a message line to know it is one
	pending []byte // read, not yet passed on
	inLine  bool   // the rest of the current line is a message's
	nest    nesting
	err     error
}

func newMessageLines(r io.Reader, skipped func(string)) *messageLines {
	return &messageLines{r: bufio.NewReaderSize(r, maxLogObject), skipped: skipped}
}

func (m *messageLines) Read(p []byte) (int, error) {
	for len(m.pending) == 0 {
		if m.err != nil {
			return 0, m.err
		}
		m.next()
	}
	n := copy(p, m.pending)
	m.pending = m.pending[n:]
	return n, nil
}

// next reads on: the next piece of a message line, or the start of a
// line, which it passes on or skips.
func (m *messageLines) next() {
	if m.inLine {
		part, err := m.r.ReadSlice('\n')
		m.nest.scan(part)
		m.pending, m.inLine = part, err == bufio.ErrBufferFull || m.nest.open()
		if err != nil && err != bufio.ErrBufferFull {
			m.err = err
		}
		return
	}
	m.head = m.head[:0]
	for {
		c, err := m.r.ReadByte()
		if err != nil {
			m.pending, m.err = m.head, err
			return
		}
		switch {
		case c == '\n':
			if openedBatch(m.head) {
				m.skipped(string(trimLine(m.head)))
			}
			return
		case len(m.head) >= maxSkipped:
			m.skip(append(m.head, c))
			return
		case isBlank(c):
			m.head = append(m.head, c)
		case c == '{':
			if !openedBatch(m.head) && m.logObject() {
				m.skip(append(m.head, c))
				return
			}
			m.pending, m.inLine = append(m.head, c), true
			m.nest = nesting{}
			m.nest.scan(m.pending)
			return
		case c == '[' && !openedBatch(m.head):
			m.head = append(m.head, c)
		default:
			m.skip(append(m.head, c))
			return
		}
	}
}

// skip reads the rest of the line begun with text and hands it on.
func (m *messageLines) skip(text []byte) {
	line := append([]byte(nil), text...)
	for {
		part, err := m.r.ReadSlice('\n')
		if room := maxSkipped - len(line); room > 0 {
			line = append(line, part[:min(len(part), room)]...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			m.err = err
		}
		break
	}
	m.skipped(string(trimLine(line[:min(len(line), maxSkipped)])))
}

// openedBatch says whether head, the blanks a line began with and what
// followed, holds a batch's '['.
func openedBatch(head []byte) bool {
	for _, c := range head {
		if c == '[' {
			return true
		}
	}
	return false
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func trimLine(b []byte) []byte {
	for len(b) > 0 && (isBlank(b[len(b)-1]) || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
