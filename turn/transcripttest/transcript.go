package transcripttest

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// ErrTranscript is wrapped by every error about a malformed transcript.
var ErrTranscript = errors.New("transcripttest: bad transcript")

// Modes a response may carry in its X-Replay pseudo-header.
const (
	// ModeHold keeps the connection open after the body until the client
	// goes away, as a server that goes quiet does.
	ModeHold = "hold"
	// ModeCut drops the connection after the body, mid-stream.
	ModeCut = "cut"
)

// Response is one recorded HTTP response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Mode is ModeHold, ModeCut or empty.
	Mode string
}

// Parse reads a transcript: recorded responses, each opening with a line
// "### HTTP <status>", then headers, a blank line and the body as the API
// sent it. The pseudo-header "X-Replay: hold" or "X-Replay: cut" sets the
// response's Mode and is not sent.
func Parse(data []byte) ([]Response, error) {
	parts := bytes.Split(data, []byte("### HTTP "))
	if len(parts) < 2 {
		return nil, fmt.Errorf("%w: no \"### HTTP\" line", ErrTranscript)
	}
	var out []Response
	for i, part := range parts[1:] {
		r, err := parseResponse(part)
		if err != nil {
			return nil, fmt.Errorf("%w: response %d: %w", ErrTranscript, i, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func parseResponse(part []byte) (Response, error) {
	head, body, _ := bytes.Cut(part, []byte("\n\n"))
	lines := strings.Split(string(head), "\n")
	status, err := strconv.Atoi(strings.TrimSpace(lines[0]))
	if err != nil || status < 100 || status > 999 {
		return Response{}, fmt.Errorf("status %q", lines[0])
	}
	r := Response{Status: status, Header: http.Header{}, Body: body}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return Response{}, fmt.Errorf("header line %q", l)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if strings.EqualFold(k, "X-Replay") {
			if v != ModeHold && v != ModeCut {
				return Response{}, fmt.Errorf("X-Replay %q, want %q or %q", v, ModeHold, ModeCut)
			}
			r.Mode = v
			continue
		}
		r.Header.Add(k, v)
	}
	return r, nil
}
