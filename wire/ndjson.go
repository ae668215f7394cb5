package wire

import (
	"fmt"
	"io"
	"net/http"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/internal/track"
)

// ndjsonWriter writes baton's own events, one canonical JSON object
// (contract.EncodeEvent) per line, flushing after each when it can.
type ndjsonWriter struct {
	w   io.Writer
	buf []byte
}

func (n *ndjsonWriter) writeEvent(ev contract.RunEvent) error {
	ev = redacted(ev)
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

// redacted is ev with the upstream URLs and keys a model failure's text
// may hold taken out, as the AG-UI and AI SDK projectors take them out;
// a compaction's summary, the model's own text, goes as it is.
func redacted(ev contract.RunEvent) contract.RunEvent {
	switch ev.Kind {
	case contract.EvRunFaulted, contract.EvModelRetry:
	case contract.EvCompaction:
		ev.Text = track.CompactionText(ev)
		return ev
	default:
		return ev
	}
	ev.Text = redact.Error(ev.Text)
	if ev.Err != nil {
		e := *ev.Err
		e.Message = redact.Error(e.Message)
		ev.Err = &e
	}
	return ev
}
