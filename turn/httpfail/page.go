package httpfail

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// maxPage bounds how much of a web page is quoted in its error.
const maxPage = 512

// WebPage reports a successful response that is a web page rather than
// the API's answer: a base URL that reaches a server's web UI, or a proxy
// that answers with its own login or error page under status 200. Read as
// an event stream it holds no events and looked like a stream cut short,
// retried to no end; it is the setup that is wrong. It returns nil for
// any other response, and reads resp's body only when it is a page (a
// body already read, as by an SDK decoding it, is not quoted).
func (c Classifier) WebPage(resp *http.Response) *turn.ProviderError {
	if resp == nil || resp.StatusCode >= 400 {
		return nil
	}
	ct := resp.Header.Get("Content-Type")
	media, _, err := mime.ParseMediaType(ct)
	if err != nil || (media != "text/html" && media != "application/xhtml+xml") {
		return nil
	}
	var start string
	if resp.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxPage))
		start = strings.Join(strings.Fields(string(b)), " ")
	}
	err = fmt.Errorf("httpfail: status %d %s", resp.StatusCode, ct)
	if start != "" {
		err = fmt.Errorf("%w: %s", err, start)
	}
	return &turn.ProviderError{
		Failure: contract.FailInvalidRequest,
		Message: c.API + ": the server answered with a web page, not the API; check the base URL",
		Err:     err,
	}
}
