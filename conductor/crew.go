package conductor

import "sync"

// crew decides which of a run's workers takes a job. The caller waiting
// for the run takes one when it is free. A job spawned while a worker is
// handing its result in is left for that worker to run next, instead of
// waking a goroutine while one is about to be free: a model call, or the
// calls of a batch, which that worker then runs one after another. So
// that the calls of a batch still run at once, a worker that takes a job
// with more left behind it calls a helper, one at a time, which takes
// the next and calls another if more are left: fast calls all run on the
// worker that started them and cost one wake-up a batch, and slow ones
// each get a worker within a wake-up of each other.
type crew struct {
	// workers counts the agent's jobs (Agent.workers): a helper is counted
	// when it is called, under mu, so that once the run is over (end) no
	// helper is called that Close would not wait for.
	workers *sync.WaitGroup

	mu       sync.Mutex
	hostFree bool
	over     bool
	// handing counts the workers handing a result in; each looks at next
	// once it is done, so a job left there always has a worker.
	handing int
	next    []job
	// calling says a helper was called and has not taken its job yet.
	calling bool
	// idle hands a job to a worker waiting for one; made with the run's
	// first worker, as most runs have none.
	idle chan job
}

// idleWorkers returns the channel of workers waiting for a job, made
// first when create is set, else nil until then.
func (c *crew) idleWorkers(create bool) chan job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.idle == nil && create {
		c.idle = make(chan job)
	}
	return c.idle
}

// toHost reports whether the caller waiting for the run takes what is
// handed out next, which makes it busy until it is free again.
func (c *crew) toHost() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.hostFree {
		return false
	}
	c.hostFree = false
	return true
}

// dropHost reports whether a job was left for the caller.
func (c *crew) dropHost() (left bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	left = !c.hostFree
	c.hostFree = false
	return left
}

// broughtNothing is called by a worker whose job brought no result (a
// call answered before it ran, a model call of a run that ended): once
// the run is over it takes the next job left, as no helper is called
// then; else it is free, any jobs left having a helper on its way.
func (c *crew) broughtNothing(host bool) job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.over && len(c.next) > 0 {
		return c.pop()
	}
	if host {
		c.hostFree = true
	}
	return nil
}

func (c *crew) finishing() {
	c.mu.Lock()
	c.handing++
	c.mu.Unlock()
}

// handTo leaves j for a worker that is handing in, if there is one.
func (c *crew) handTo(j job) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handing == 0 {
		return false
	}
	c.next = append(c.next, j)
	return true
}

// finished is called by a worker once its result is handed in: it
// returns the first job left, or nil, and then the caller waiting for
// the run is free; help says to call a helper for the jobs behind it.
func (c *crew) finished(host bool) (j job, help bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handing--
	if len(c.next) == 0 {
		if host {
			c.hostFree = true
		}
		return nil, false
	}
	return c.pop(), c.callHelper()
}

// take is a helper's: the first job left, if any is still there, and
// whether to call another helper for the ones behind it.
func (c *crew) take() (j job, help bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calling = false
	if len(c.next) == 0 {
		return nil, false
	}
	return c.pop(), c.callHelper()
}

// callHelper reports whether a helper is to be called, counted among
// the agent's jobs: jobs are left, none is on its way, and the run goes
// on. The jobs of a run that is over need none: the worker that took
// the first runs the rest, each answered at once as cancelled, whether
// it brought a result or nothing (broughtNothing).
func (c *crew) callHelper() bool {
	if len(c.next) == 0 || c.calling || c.over {
		return false
	}
	c.calling = true
	c.workers.Add(1)
	return true
}

// end says the run is over; called in turn, before Close waits for the
// agent's jobs.
func (c *crew) end() {
	c.mu.Lock()
	c.over = true
	c.mu.Unlock()
}

func (c *crew) pop() job {
	j := c.next[0]
	n := copy(c.next, c.next[1:])
	c.next[n] = nil
	c.next = c.next[:n]
	return j
}
