package main

import (
	"io"
	"sync"
)

// outputWriter is a command's stdout that remembers the first write that
// failed. Most printing ignores write errors, one line at a time, so
// without it a full disk or a closed stdout would lose the output of a
// command that still exits 0.
type outputWriter struct {
	w   io.Writer
	mu  sync.Mutex // the printer and the console write from several goroutines
	err error
}

func (o *outputWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		o.mu.Lock()
		if o.err == nil {
			o.err = err
		}
		o.mu.Unlock()
	}
	return n, err
}

// failed returns the first write error, if any.
func (o *outputWriter) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}
