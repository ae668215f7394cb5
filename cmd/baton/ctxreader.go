package main

import (
	"context"
	"io"
)

// ctxReader reads r until ctx ends. A read of stdin blocks until a line
// or EOF comes, whatever a context says, so each read runs on its own
// goroutine and one that ctx ends is left to finish into a buffer of its
// own, which nobody reads; the process is about to exit.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

type readResult struct {
	n   int
	err error
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	buf := make([]byte, len(p))
	done := make(chan readResult, 1)
	go func() {
		n, err := c.r.Read(buf)
		done <- readResult{n, err}
	}()
	select {
	case res := <-done:
		return copy(p, buf[:res.n]), res.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}
