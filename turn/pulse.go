package turn

import (
	"fmt"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
)

// pulse wraps publish so that, with Options.WaitingAfter set, a waiting
// event goes out each time nothing was published for that long. The
// wrapped publish is serialised, since the pulse publishes from its own
// goroutine. stop ends the pulse and returns once its goroutine has.
func (d *Driver) pulse(publish func(*contract.RunEvent)) (wrapped func(*contract.RunEvent), stop func()) {
	every := d.o.WaitingAfter
	if every <= 0 || publish == nil {
		return publish, func() {}
	}
	var mu sync.Mutex
	fed := 0
	wrapped = func(ev *contract.RunEvent) {
		mu.Lock()
		defer mu.Unlock()
		fed++
		publish(ev)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		seen, quiet := 0, time.Duration(0)
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			mu.Lock()
			if fed != seen {
				seen, quiet = fed, 0
				mu.Unlock()
				continue
			}
			quiet += every
			publish(&contract.RunEvent{Kind: contract.EvWaiting, Text: fmt.Sprintf("no output from the model for %s", quiet), At: d.o.Now()})
			mu.Unlock()
		}
	}()
	var once sync.Once
	return wrapped, func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}
