package httpfail

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClassifyHidesURLUserinfo: SDKs quote the request URL whole in their
// errors, and a base URL may carry a credential in its userinfo: a
// password, or a token standing alone as the user name.
func TestClassifyHidesURLUserinfo(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{"password", "https://gateway:s3cret@gw.example/v1/messages",
			`POST "https://gateway:xxxxx@gw.example/v1/messages": 401 Unauthorized`},
		{"token as user", "https://tok3nsecret@gw.example/v1/messages",
			`POST "https://xxxxx@gw.example/v1/messages": 401 Unauthorized`},
		{"no userinfo", "https://gw.example/v1/messages",
			`POST "https://gw.example/v1/messages": 401 Unauthorized`},
	}
	c := Classifier{API: "demo"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			cause := fmt.Errorf("POST %q: 401 Unauthorized", u)
			resp := &http.Response{StatusCode: 401, Header: http.Header{}, Request: &http.Request{URL: u}}
			pe := c.Classify(context.Background(), resp, cause)
			if diff := cmp.Diff(tt.want, pe.Err.Error()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(pe, cause) {
				t.Errorf("%v does not wrap the SDK's error", pe)
			}
		})
	}
}

// TestClassifyHidesURLUserinfoWithoutResponse: a call that got no
// response fails with the client's *url.Error, which hides a password
// but quotes a token standing as the user name.
func TestClassifyHidesURLUserinfoWithoutResponse(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{"token as user", "http://tok3nsecret@127.0.0.1:1/v1/messages",
			`Post "http://xxxxx@127.0.0.1:1/v1/messages": dial tcp 127.0.0.1:1: connect: connection refused`},
		{"password hidden by the client", "http://gateway:s3cret@127.0.0.1:1/v1/messages",
			`Post "http://gateway:***@127.0.0.1:1/v1/messages": dial tcp 127.0.0.1:1: connect: connection refused`},
	}
	c := Classifier{API: "demo"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cause := http.Post(tt.url, "application/json", nil)
			if cause == nil {
				t.Fatal("a post to port 1 succeeded")
			}
			pe := c.Classify(context.Background(), nil, cause)
			if diff := cmp.Diff(tt.want, pe.Err.Error()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(pe, cause) {
				t.Errorf("%v does not wrap the client's error", pe)
			}
		})
	}
}
