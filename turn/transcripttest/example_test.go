package transcripttest_test

import (
	"fmt"
	"io"

	"github.com/batonrt/baton/turn/transcripttest"
)

// ExampleNewServer plays a failed attempt, then the reply that follows it.
func ExampleNewServer() {
	srv, err := transcripttest.NewServer([]byte("### HTTP 503\n\nbusy\n### HTTP 200\nContent-Type: text/event-stream\n\ndata: hello\n\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	for range 2 {
		resp, err := srv.Client().Post(srv.URL, "application/json", nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Printf("%d %q\n", resp.StatusCode, body)
	}
	fmt.Println("served", srv.Served())
	// Output:
	// 503 "busy\n"
	// 200 "data: hello\n\n"
	// served 2
}

// ExampleParse reads a transcript whose reply goes quiet after its body.
func ExampleParse() {
	rs, err := transcripttest.Parse([]byte("### HTTP 200\nX-Replay: hold\n\ndata: a\n\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(rs), rs[0].Status, rs[0].Mode)
	_, err = transcripttest.Parse([]byte("### HTTP ok\n\n"))
	fmt.Println(err)
	// Output:
	// 1 200 hold
	// transcripttest: bad transcript: response 0: status "ok"
}
