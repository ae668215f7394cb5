package httpfail

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// What a server said about a failed response joins the error's text,
// once, and without the credential the request sent, which servers
// sometimes quote back ("Incorrect API key provided: sk-...").
func TestClassifySaysWhatTheServerSaid(t *testing.T) {
	const key = "sk-test-secret-0123456789abcdef"
	sent := func(h http.Header) *http.Response {
		req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/v1/chat/completions", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = h
		return &http.Response{StatusCode: 401, Header: http.Header{}, Request: req}
	}
	tests := []struct {
		name string
		said string
		resp *http.Response
		err  error
		want string
	}{
		{"message added", "The model `gpt-9` does not exist", sent(http.Header{}), errors.New("API error: 404 Not Found"), "demo: request failed: The model `gpt-9` does not exist"},
		{"already in the error", "bad key", sent(http.Header{}), errors.New("401 Unauthorized: bad key"), "demo: request failed"},
		{"nothing said", "", sent(http.Header{}), errors.New("401 Unauthorized"), "demo: request failed"},
		{"bearer key quoted back", "Incorrect API key provided: " + key + ".", sent(http.Header{"Authorization": {"Bearer " + key}}), errors.New("401 Unauthorized"), "demo: request failed: Incorrect API key provided: xxxxx."},
		{"api key header quoted back", "invalid x-api-key " + key, sent(http.Header{"X-Api-Key": {key}}), errors.New("401 Unauthorized"), "demo: request failed: invalid x-api-key xxxxx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Classifier{API: "demo", Said: func(error) string { return tt.said }}
			pe := c.Classify(context.Background(), tt.resp, tt.err)
			if diff := cmp.Diff(tt.want, pe.Message); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// An SDK that quotes the failed response's body in its error text quotes
// a key the server echoed too: it is hidden from the error's text, which
// still unwraps to the SDK's error.
func TestClassifyHidesSentKeyInErrorText(t *testing.T) {
	const key = "sk-ant-secret-0123456789abcdef"
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1/v1/messages", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Api-Key", key)
	sdkErr := errors.New(`401 Unauthorized {"error":{"message":"invalid x-api-key ` + key + `"}}`)
	pe := Classifier{API: "demo"}.Classify(context.Background(), &http.Response{StatusCode: 401, Header: http.Header{}, Request: req}, sdkErr)
	want := `turn: provider auth (status 401): demo: request failed: 401 Unauthorized {"error":{"message":"invalid x-api-key xxxxx"}}`
	if diff := cmp.Diff(want, pe.Error()); diff != "" {
		t.Errorf("error text mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(pe, sdkErr) {
		t.Error("the error no longer unwraps to the SDK's")
	}
}
