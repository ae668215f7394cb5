package conductor

import (
	"sync"
	"time"
)

// crew decides which of a run's workers takes a job. The caller waiting
// for the run takes one when it is free. A job spawned while a worker is
// handing its result in is left for that worker to run next, instead of
// waking a goroutine while one is about to be free: a model call, or the
// calls of a batch, which that worker then runs one after another. So
// that the calls of a batch still run at once, a worker that takes a job
// with more left behind it calls a helper if that job is still running
// after helperWait; a helper takes the next job and at once calls
// another if more are left. Fast calls all run on the worker that
// started them and wake no goroutine, and slow ones each get a worker,
// the second after helperWait and each later one within a wake-up of the
// one before.
type crew struct {
	// workers counts the agent's jobs (Agent.workers): a helper is counted
	// when it is called, under mu, so that once the run is over (end) no
	// helper is called that Close would not wait for. running counts the
	// run's goroutines (runState.wg), and whoever starts a helper among
	// them until it has (see callHelper).
	workers *sync.WaitGroup
	running *sync.WaitGroup

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

	// call starts the helper the crew decided to call, patience (helperWait)
	// is how long it waits first; both set with the run.
	call     func()
	patience time.Duration
	// wait calls a helper once patience has passed since it was armed (a
	// worker took a job with more left behind it); made at its first use.
	// armed says it is counting.
	wait  *time.Timer
	armed bool
}

// helperWait is how long the jobs left behind the one a worker took wait
// for it before a helper is called for them. A batch of fast calls is
// done within it on the worker alone; a tool call that takes longer
// waits on a network or a process, against which this is little. (The
// runtime's timers may fire up to a millisecond late when idle.)
const helperWait = 50 * time.Microsecond

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
// call answered before it ran, a model call of a run that ended): it
// takes the next job left, if any (once the run is over no helper is
// called for them); else it is free.
func (c *crew) broughtNothing(host bool) job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.next) > 0 {
		j := c.pop()
		c.waitForHelper()
		return j
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
// the run is free.
func (c *crew) finished(host bool) job {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handing--
	if len(c.next) == 0 {
		if host {
			c.hostFree = true
		}
		return nil
	}
	j := c.pop()
	c.waitForHelper()
	return j
}

// take is a helper's: the first job left, if any is still there, and
// whether to call another helper for the ones behind it.
func (c *crew) take() (j job, help bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calling = false
	if len(c.next) == 0 {
		c.waitForHelper()
		return nil, false
	}
	j = c.pop()
	help = c.callHelper()
	c.waitForHelper()
	return j, help
}

// callHelper reports whether a helper is to be called, counted among
// the agent's jobs: jobs are left, none is on its way, and the run goes
// on. The jobs of a run that is over need none: the worker that took
// the first runs the rest, each answered at once as cancelled, whether
// it brought a result or nothing (broughtNothing). Whoever starts the
// helper (startHelper) is counted among the run's goroutines until it
// has: it may be one they do not count (the caller waiting for the run,
// the timer), and a wait for them, which begins once the run is over,
// must not begin before the helper's own worker is counted.
func (c *crew) callHelper() bool {
	if len(c.next) == 0 || c.calling || c.over {
		return false
	}
	c.calling = true
	c.workers.Add(1)
	c.running.Add(1)
	return true
}

// startHelper starts the helper callHelper called for, outside c.mu.
func (c *crew) startHelper() {
	c.call()
	c.running.Done()
}

// waitForHelper arms the helper's timer while jobs are left for which no
// helper is on its way, and stops it when none is needed. Called with
// c.mu held, after every change to those.
func (c *crew) waitForHelper() {
	need := len(c.next) > 0 && !c.calling && !c.over
	switch {
	case need && !c.armed:
		c.armed = true
		if c.wait == nil {
			c.wait = time.AfterFunc(c.patience, c.waited)
		} else {
			c.wait.Reset(c.patience)
		}
	case !need && c.armed:
		c.armed = false
		c.wait.Stop()
	}
}

// waited is the helper's timer firing: a helper is called if jobs are
// still left without one. A firing that a stop came too late for finds
// the timer disarmed, or calls a helper a little early, which is all a
// helper costs.
func (c *crew) waited() {
	c.mu.Lock()
	help := c.armed && c.callHelper()
	c.armed = false
	c.mu.Unlock()
	if help {
		c.startHelper()
	}
}

// end says the run is over; called in turn, before Close waits for the
// agent's jobs.
func (c *crew) end() {
	c.mu.Lock()
	// Jobs left behind a running one get their helper now, as none is
	// called once the run is over: they would wait for the one running,
	// which may ignore its cancellation, and count meanwhile as calls
	// that ignored theirs.
	help := c.callHelper()
	c.over = true
	c.waitForHelper()
	c.mu.Unlock()
	if help {
		c.startHelper()
	}
}

// pop takes the first job left; its caller then sees to the helper's
// timer for the ones behind it (waitForHelper).
func (c *crew) pop() job {
	j := c.next[0]
	n := copy(c.next, c.next[1:])
	c.next[n] = nil
	c.next = c.next[:n]
	return j
}
