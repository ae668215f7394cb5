package postgres

import "sync"

// holdOnce holds, once armed, the first statement a tracer passes to it
// until the test releases it: a statement the scheduler or the network
// slowed down.
type holdOnce struct {
	mu      sync.Mutex
	armed   bool
	reached chan struct{}
	release chan struct{}
}

func newHoldOnce() holdOnce {
	return holdOnce{reached: make(chan struct{}), release: make(chan struct{})}
}

func (h *holdOnce) arm() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armed = true
}

func (h *holdOnce) hold() {
	h.mu.Lock()
	hold := h.armed
	h.armed = false
	h.mu.Unlock()
	if hold {
		close(h.reached)
		<-h.release
	}
}
