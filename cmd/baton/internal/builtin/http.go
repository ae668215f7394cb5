package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

type httpArgs struct {
	URL string `json:"url"`
}

func (s *Set) httpGet() (dispatch.Tool, error) {
	d := contract.ToolDescriptor{
		Name:          "http_get",
		Description:   "Fetch a URL with HTTP GET and return the status and the start of the body. Each call needs the user's approval; they may allow a host for the session.",
		InputSchema:   []byte(`{"type":"object","properties":{"url":{"type":"string","description":"an http or https URL"}},"required":["url"],"additionalProperties":false}`),
		NeedsApproval: true,
		Idempotent:    true,
	}
	t, err := dispatch.NewTool(d, s.fetch)
	if err != nil {
		return nil, err
	}
	return dispatch.WithApprovalKeys(t, httpKeys), nil
}

func (s *Set) fetch(ctx context.Context, raw json.RawMessage) (contract.ToolOutcome, error) {
	var a httpArgs
	if err := decodeStrict(raw, &a); err != nil {
		return contract.ToolOutcome{}, err
	}
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return contract.ToolOutcome{}, fmt.Errorf("http_get: %q is not an http or https URL", a.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return contract.ToolOutcome{}, fmt.Errorf("http_get: %w", err)
	}
	resp, err := sameHost(s.opts.HTTPClient, u.Host).Do(req)
	if err != nil {
		return contract.ToolOutcome{}, fmt.Errorf("http_get: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.opts.MaxHTTP+1))
	if err != nil && len(body) == 0 {
		return contract.ToolOutcome{}, fmt.Errorf("http_get: read body: %w", err)
	}
	truncated := int64(len(body)) > s.opts.MaxHTTP
	if truncated {
		body = body[:runeCut(body, int(s.opts.MaxHTTP))]
	}
	// A body that stalls after it began (a stream that never ends) is
	// answered with what came, its end cut off.
	stalled := ""
	if err != nil {
		body = body[:runeEnd(body)]
		stalled = fmt.Sprintf("\n[stopped reading after %d bytes: %v]", len(body), err)
		truncated = true
	}
	head := fmt.Sprintf("HTTP %s\ncontent-type: %s\n", resp.Status, resp.Header.Get("Content-Type"))
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		// A redirect to another host is not followed: the call was
		// approved for this host only; the model may ask for the other.
		head += "location: " + loc + "\n"
	}
	text := fmt.Sprintf("%s\n%s", head, body)
	switch {
	case stalled != "":
		text += stalled
	case truncated:
		text += fmt.Sprintf("\n[truncated at %d bytes]", len(body))
	}
	return contract.ToolOutcome{Content: text, IsError: resp.StatusCode >= 400, Truncated: truncated}, nil
}

// sameHost is c following redirects only within host, the host the
// call was approved for (httpKeys); a redirect elsewhere is returned as
// the response instead.
func sameHost(c *http.Client, host string) *http.Client {
	cc := *c
	next := c.CheckRedirect
	cc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !strings.EqualFold(req.URL.Host, host) {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &cc
}

// decodeStrict parses a hand-schema tool's arguments, refusing unknown
// fields so a misspelt argument is reported rather than ignored, and
// anything after the object.
func decodeStrict(raw []byte, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return errors.New("arguments: empty, want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("arguments: %w", err)
	}
	// Decode reads one value and leaves the rest; the approval keys
	// read the whole text as one value, as this must.
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("arguments: more after the JSON object")
	}
	return nil
}

// httpKeys are the approval keys of an http_get call: the URL's host (and
// port, when it names one), lower-cased.
func httpKeys(raw json.RawMessage) ([]string, error) {
	var a httpArgs
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("http_get: %w", err)
	}
	u, err := url.Parse(a.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("http_get: %q is not an http or https URL", a.URL)
	}
	return []string{strings.ToLower(u.Host)}, nil
}
