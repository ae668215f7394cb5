package mcp

import (
	"bytes"
	"encoding/json"
)

// maxLogObject bounds the object a line opens that is looked at whole
// before it is passed on, to tell a log line a structured logger wrote
// as JSON (pino, structlog) from a message; a longer one is taken for a
// message, as log lines are short.
const maxLogObject = 64 << 10

// logObject says whether the object whose '{' was just read is a log
// line rather than a message: it closes on its line and is no message.
func (m *messageLines) logObject() bool {
	obj, whole := m.peekObject()
	return whole && !isMessage(obj)
}

// peekObject returns, without reading it, the object whose '{' was just
// read, when it closes on its line within maxLogObject bytes; whole is
// false when it does not (a message indented across lines, a long one,
// a stream that ended).
func (m *messageLines) peekObject() (obj []byte, whole bool) {
	nest := nesting{}
	nest.scan([]byte{'{'})
	for scanned := 0; ; {
		// What is buffered is looked at first; only once it is all
		// looked at does the peek wait for one byte more.
		n := max(m.r.Buffered(), scanned+1)
		if n > maxLogObject {
			return nil, false
		}
		b, err := m.r.Peek(n)
		for ; scanned < len(b); scanned++ {
			if b[scanned] == '\n' {
				return nil, false
			}
			nest.scan(b[scanned : scanned+1])
			if !nest.open() {
				return append([]byte{'{'}, b[:scanned+1]...), true
			}
		}
		if err != nil {
			return nil, false
		}
	}
}

// isMessage says whether obj, an object a line opens, can be a JSON-RPC
// message: every message has the member jsonrpc, so one that does not
// name it is none, and is told apart without being parsed. One that
// names it but does not parse is left for the SDK to refuse, as it was
// before objects were looked at.
func isMessage(obj []byte) bool {
	if !bytes.Contains(obj, []byte(`"jsonrpc"`)) {
		return false
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(obj, &members) != nil {
		return true
	}
	_, ok := members["jsonrpc"]
	return ok
}
