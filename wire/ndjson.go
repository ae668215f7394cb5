package wire

import (
	"fmt"
	"io"
	"net/http"

	"github.com/batonrt/baton/contract"
)

// ndjsonWriter writes baton's own events, one canonical JSON object
// (contract.EncodeEvent) per line, flushing after each when it can.
type ndjsonWriter struct {
	w   io.Writer
	buf []byte
}

func (n *ndjsonWriter) writeEvent(ev contract.RunEvent) error {
	b, err := contract.EncodeEvent(ev)
	if err != nil {
		return fmt.Errorf("wire: encode event %d: %w", ev.Seq, err)
	}
	n.buf = append(append(n.buf[:0], b...), '\n')
	if _, err := n.w.Write(n.buf); err != nil {
		return fmt.Errorf("wire: write ndjson: %w", err)
	}
	if f, ok := n.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}
