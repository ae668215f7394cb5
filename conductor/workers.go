package conductor

// A job is work a run does off the agent's tasks (a model call, an
// approver, an answerer, a summary): do returns the task that applies
// its result, or none. An interface rather than a func, so a model call
// is handed over without a method value to allocate; the agent is handed
// to do, so a tool call need not keep it and stays one pointer (hereCall).
type job interface{ do(a *Agent) (result task) }

// jobFunc is a job written as a closure.
type jobFunc func() task

func (f jobFunc) do(*Agent) task { return f() }

// spawn runs j on one of the run's workers: a worker handing in a
// result, which runs it next, else as start does. The run waits for the
// workers it started to end, and the agent for every job (Close). Called
// in turn with the agent's closures, so every count is taken before
// Close can wait on it.
func (a *Agent) spawn(run *runState, j job) {
	if run.crew.handTo(j) {
		return
	}
	a.start(run, j)
}

// start runs j on the caller waiting for the run (Submit, Resume) when it
// is free, else on a worker waiting for work, else on a new one.
func (a *Agent) start(run *runState, j job) {
	a.workers.Add(1)
	a.startCounted(run, j)
}

// startCounted is start with j already counted among the agent's jobs,
// as a helper is by the crew that calls it (see crew.callHelper).
func (a *Agent) startCounted(run *runState, j job) {
	if run.crew.toHost() {
		run.host <- hosted{job: j}
		return
	}
	if idle := run.crew.idleWorkers(false); idle != nil {
		select {
		case idle <- j:
			// The worker waiting is counted already.
			a.workers.Done()
			return
		default:
		}
	}
	run.wg.Add(1)
	go a.worker(run, j, run.crew.idleWorkers(true))
}

// worker runs j and then the run's jobs handed to it on idle while it
// waits, until the run or the agent ends.
func (a *Agent) worker(run *runState, j job, idle chan job) {
	defer a.workers.Done()
	defer run.wg.Done()
	a.work(run, j, false)
	for {
		select {
		case j = <-idle:
			a.work(run, j, false)
		case <-run.ctx.Done():
			return
		case <-a.quit:
			return
		}
	}
}

// work runs j, hands its result in, and then runs the jobs left for this
// worker while it was handing in, so that one model call or tool call
// after another runs on the same goroutine without waking another.
func (a *Agent) work(run *runState, j job, host bool) {
	for j != nil {
		result := j.do(a)
		if result.none() {
			j = run.crew.broughtNothing(host)
			continue
		}
		result.run = run
		j = a.handOver(run, &result, host)
	}
}

// handOver hands a worker's result in and returns the job left for this
// worker meanwhile, if any; a helper comes for the ones behind it if it
// is still running after helperWait (see crew).
func (a *Agent) handOver(run *runState, result *task, host bool) job {
	run.crew.finishing()
	a.enqueue(result)
	return run.crew.finished(host)
}

// helper is the job of a worker called to take the jobs left behind the
// one a worker took (see crew): a batch's calls, which each start as soon
// as some worker is free for them.
type helper struct{ run *runState }

func (h *helper) do(a *Agent) task {
	j, help := h.run.crew.take()
	if j == nil {
		return task{}
	}
	if help {
		h.run.crew.startHelper()
	}
	return j.do(a)
}

// handIn has the caller waiting for the run hand in a result brought to
// it (settle), and run what that result spawned.
func (a *Agent) handIn(run *runState, result *task, host bool) {
	if j := a.handOver(run, result, host); j != nil {
		a.work(run, j, host)
	}
}

// hosted is what the caller waiting for a run is handed: a job to run,
// or a result to hand in.
type hosted struct {
	job    job
	result task
}

// settle hands in a tool call's result. When the caller waiting for the
// run is free, it is handed the result, so the step runs on that
// goroutine's stack, grown long ago, rather than growing the tool's
// fresh one to apply the step; the wake-up is the one the next model
// call would cost anyway. Else the tool's goroutine hands it in itself.
func (a *Agent) settle(run *runState, result task) {
	result.run = run
	if run.crew.toHost() {
		run.host <- hosted{result: result}
		return
	}
	a.enqueue(&result)
}

// dropHost is for a run the caller no longer works for: it stopped
// waiting, or it never did (Reopen). A job left for it goes to a worker
// while the run goes on, and is dropped once the run is over, but for a
// helper: the calls it was called to take are run through here, each
// answered at once as cancelled, or they would wait for no one.
func (a *Agent) dropHost(run *runState) {
	if !run.crew.dropHost() {
		return
	}
	// spawn and settle send what they left right after deciding to.
	h := <-run.host
	if h.job == nil {
		a.enqueue(&h.result)
		return
	}
	j := h.job
	if run.ctx.Err() == nil {
		a.workers.Done()
		a.send(run, func() { a.start(run, j) })
		return
	}
	if j == job(&run.helper) {
		a.work(run, j, false)
	}
	a.workers.Done()
}
