package httpfail

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// redactURLPassword hides the credential of a base URL such as
// https://user:password@gateway/ or https://token@gateway/ in err's text:
// the SDKs quote the request URL whole in their errors, and a failure's
// text is logged and stored with the run. A user name with a password is
// shown; one standing alone is the credential (Go's client sends it as
// Basic auth) and is hidden. The error still unwraps to the SDK's own.
func redactURLPassword(resp *http.Response, err error) error {
	u := requestURL(resp, err)
	if u == nil || u.User == nil {
		return err
	}
	user := u.User
	shown := url.User("xxxxx")
	if _, ok := user.Password(); ok {
		shown = url.UserPassword(user.Username(), "xxxxx")
	} else if user.Username() == "" {
		return err
	}
	return &redactedError{err: err, secret: user.String() + "@", shown: shown.String() + "@"}
}

// requestURL is the URL of the request that failed: the response's, or,
// when none arrived, the one the client's *url.Error quotes.
func requestURL(resp *http.Response, err error) *url.URL {
	if resp != nil && resp.Request != nil {
		return resp.Request.URL
	}
	var ue *url.Error
	if !errors.As(err, &ue) {
		return nil
	}
	u, perr := url.Parse(ue.URL)
	if perr != nil {
		return nil
	}
	return u
}

// keyHeaders are the request headers that carry an API's key.
var keyHeaders = []string{"Authorization", "X-Api-Key", "Api-Key"}

// sentKeys are the keys resp's request sent in keyHeaders (an
// Authorization value without its scheme), those long enough to be told
// from ordinary words.
func sentKeys(resp *http.Response) []string {
	if resp == nil || resp.Request == nil {
		return nil
	}
	var keys []string
	for _, name := range keyHeaders {
		for _, v := range resp.Request.Header.Values(name) {
			if name == "Authorization" {
				if _, token, ok := strings.Cut(v, " "); ok {
					v = token
				}
			}
			if v = strings.TrimSpace(v); len(v) >= 8 {
				keys = append(keys, v)
			}
		}
	}
	return keys
}

// redactSentKeys hides in err's text each key the request sent: some
// SDKs quote a failed response's body in their errors, and a server may
// quote the key back ("Incorrect API key provided: ...").
func redactSentKeys(resp *http.Response, err error) error {
	for _, key := range sentKeys(resp) {
		if strings.Contains(err.Error(), key) {
			err = &redactedError{err: err, secret: key, shown: "xxxxx"}
		}
	}
	return err
}

type redactedError struct {
	err           error
	secret, shown string
}

func (e *redactedError) Error() string { return strings.ReplaceAll(e.err.Error(), e.secret, e.shown) }

func (e *redactedError) Unwrap() error { return e.err }
