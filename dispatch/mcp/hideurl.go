package mcp

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// urlHider takes a server's URL out of the errors of its tools' calls.
// Hosted servers often take their key in the URL, in the query or the
// path, and Go's errors quote the URL of a request that failed whole;
// a call's error is the model's to read and the session's to keep, so
// it names the server's scheme and host only. The host's log lines keep
// the whole error.
type urlHider struct {
	forms []string // the spellings of the URL an error may quote, longest first
	shown string   // what is shown in their place
}

func newURLHider(raw string) urlHider {
	u, err := url.Parse(raw)
	if raw == "" || err != nil {
		return urlHider{}
	}
	forms := []string{raw, u.String(), u.Redacted()}
	if _, ok := u.User.Password(); ok {
		// As Go's HTTP client quotes it in errors.
		forms = append(forms, strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1))
	}
	slices.SortFunc(forms, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	shown := u.Scheme + "://" + u.Host
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		shown += "/…"
	}
	return urlHider{forms: slices.Compact(forms), shown: shown}
}

// hide returns err with the URL taken out of its text, still wrapping
// err for errors.Is and errors.As.
func (h urlHider) hide(err error) error {
	if err == nil || len(h.forms) == 0 {
		return err
	}
	msg := err.Error()
	hidden := msg
	for _, form := range h.forms {
		hidden = strings.ReplaceAll(hidden, form, h.shown)
	}
	if hidden == msg {
		return err
	}
	return &hiddenURL{msg: hidden, err: err}
}

// hiddenURL is an error whose text has the server's URL taken out.
type hiddenURL struct {
	msg string
	err error
}

func (e *hiddenURL) Error() string { return e.msg }
func (e *hiddenURL) Unwrap() error { return e.err }
