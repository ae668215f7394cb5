package wire

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A thread id with a character that is not shown as itself is refused
// by every request that names a thread, as control characters are: a
// bidirectional override or a zero-width character makes two ids look
// alike, or one look like another, in a page, a log and `baton sessions`.
// Ids with letters of any script, marks and emoji are still served.
func TestThreadIDsWithInvisibleCharactersAreRefused(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript})
	json := map[string]string{"Content-Type": "application/json"}
	requests := []struct {
		name string
		do   func(id string) (int, string)
	}{
		{"AG-UI POST", func(id string) (int, string) {
			code, body, _ := e.do("POST", "", runBody(id, "hi"), json)
			return code, body
		}},
		{"AI SDK POST", func(id string) (int, string) {
			code, body, _ := e.do("POST", "?protocol=ai-sdk", chatBody(id, "hi"), json)
			return code, body
		}},
		{"AG-UI resume", func(id string) (int, string) {
			code, body, _ := e.do("GET", "?lastEventId=1&threadId="+url.QueryEscape(id), "", nil)
			return code, body
		}},
		{"AI SDK resume", func(id string) (int, string) {
			code, body, _ := e.do("GET", "/"+url.PathEscape(id)+"/stream?protocol=ai-sdk", "", nil)
			return code, body
		}},
		{"messages", func(id string) (int, string) {
			code, body, _ := e.do("GET", "/api/chat/"+url.PathEscape(id)+"/messages", "", nil)
			return code, body
		}},
	}
	for _, r := range []rune{
		0x202a, 0x202e, // embedding and override
		0x2066, 0x2069, // isolates
		0x200b, 0x200d, 0x200f, // zero-width space and joiner, right-to-left mark
		0xfeff,         // zero-width no-break space
		0x00ad,         // soft hyphen
		0x061c,         // Arabic letter mark
		0x2060,         // word joiner
		0xe0041,        // tag letter A
		0x2028, 0x2029, // line and paragraph separators
	} {
		id := "t" + string(r) + "1"
		for _, req := range requests {
			t.Run(fmt.Sprintf("%U %s", r, req.name), func(t *testing.T) {
				code, body := req.do(id)
				if want := fmt.Sprintf("%U", r); code != http.StatusBadRequest || !strings.Contains(body, want) {
					t.Errorf("got %d %.200q, want 400 naming %s", code, body, want)
				}
			})
		}
		if e.agent(id) != nil {
			t.Errorf("%U: a refused request opened the thread", r)
		}
	}
	for _, id := range []string{"café-日本-شبكة", "e\u0301t\u00e9", "🙂-x"} {
		if code, body, _ := e.do("POST", "?protocol=ai-sdk", chatBody(id, "hi"), json); code != http.StatusOK {
			t.Errorf("%q: got %d %q, want 200", id, code, body)
		}
	}
}
