package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"

	"github.com/batonrt/baton/contract"
)

// ErrMalformedLine is wrapped by ReadJSONL's error for a line that is not
// an event.
var ErrMalformedLine = errors.New("ledger: malformed jsonl line")

// maxLine bounds one JSONL line; a turn with large tool output can be big.
const maxLine = 64 << 20

// JSONLSink returns a subscriber fn that writes each event to w as one
// canonical JSON line (contract.EncodeEvent). Writes are serialised. After
// the first write error the sink writes nothing more, so a broken log
// never turns into a stream of half lines.
func JSONLSink(w io.Writer) func(contract.RunEvent) {
	var (
		mu     sync.Mutex
		failed bool
		buf    []byte
	)
	return func(ev contract.RunEvent) {
		b, err := contract.EncodeEvent(ev)
		mu.Lock()
		defer mu.Unlock()
		if failed || err != nil {
			return
		}
		buf = append(append(buf[:0], b...), '\n')
		if _, err := w.Write(buf); err != nil {
			failed = true
		}
	}
}

// ReadJSONL yields the events of a JSONL run log in order. Blank lines are
// skipped; the first malformed line or read error is yielded and ends the
// sequence.
func ReadJSONL(r io.Reader) iter.Seq2[contract.RunEvent, error] {
	return func(yield func(contract.RunEvent, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), maxLine)
		line := 0
		for sc.Scan() {
			line++
			b := bytes.TrimSpace(sc.Bytes())
			if len(b) == 0 {
				continue
			}
			ev, err := decodeEvent(b)
			if err != nil {
				yield(contract.RunEvent{}, fmt.Errorf("%w: line %d: %w", ErrMalformedLine, line, err))
				return
			}
			if !yield(ev, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(contract.RunEvent{}, fmt.Errorf("ledger: read jsonl after line %d: %w", line, err))
		}
	}
}

func decodeEvent(b []byte) (contract.RunEvent, error) {
	var ev contract.RunEvent
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ev); err != nil {
		return contract.RunEvent{}, err
	}
	if dec.More() {
		return contract.RunEvent{}, errors.New("trailing data")
	}
	if ev.Kind == "" {
		return contract.RunEvent{}, errors.New("no kind")
	}
	return ev, nil
}
