package httpfail

import (
	"net/http"
	"net/url"
	"strings"
)

// redactURLPassword hides the password of a base URL such as
// https://user:password@gateway/ in err's text: the SDKs quote the
// request URL whole in their errors, and a failure's text is logged and
// stored with the run. The error still unwraps to the SDK's own.
func redactURLPassword(resp *http.Response, err error) error {
	if resp == nil || resp.Request == nil || resp.Request.URL == nil {
		return err
	}
	user := resp.Request.URL.User
	if _, ok := user.Password(); !ok {
		return err
	}
	return &redactedError{
		err:    err,
		secret: user.String() + "@",
		shown:  url.UserPassword(user.Username(), "xxxxx").String() + "@",
	}
}

type redactedError struct {
	err           error
	secret, shown string
}

func (e *redactedError) Error() string { return strings.ReplaceAll(e.err.Error(), e.secret, e.shown) }

func (e *redactedError) Unwrap() error { return e.err }
