package endpoint

import (
	"bytes"
	"io"
	"mime"
	"net/http"
)

// Middleware is an SDK's request middleware; the Stainless-generated SDKs
// (openai-go and anthropic-sdk-go alike) declare theirs as this very type.
type Middleware = func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error)

// bom is UTF-8's byte order mark.
var bom = []byte("\ufeff")

// StripBOM drops a byte order mark from the start of an event stream. The
// event-stream format allows one, and some gateways send it, but the
// SDKs' decoders read it as part of the first field's name and so lose
// the first event.
func StripBOM(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	resp, err := next(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media == "text/event-stream" {
		resp.Body = &bomless{ReadCloser: resp.Body}
	}
	return resp, nil
}

// bomless reads its stream without a leading byte order mark. It looks at
// the first bytes on the first Read, not before, so opening the stream
// never waits on the server's first event.
type bomless struct {
	io.ReadCloser
	r io.Reader
}

func (b *bomless) Read(p []byte) (int, error) {
	if b.r == nil {
		head := make([]byte, len(bom))
		n, err := io.ReadFull(b.ReadCloser, head)
		head = bytes.TrimPrefix(head[:n], bom)
		if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
			b.r = io.MultiReader(bytes.NewReader(head), errReader{err})
		} else {
			b.r = io.MultiReader(bytes.NewReader(head), b.ReadCloser)
		}
	}
	return b.r.Read(p)
}

// errReader fails every read with its error.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
