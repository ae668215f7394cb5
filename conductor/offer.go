package conductor

// offer is a task for another agent of the delegation tree.
type offer struct {
	to *Agent
	fn func()
	// dropped, when set, is done instead once to has been closed and
	// takes no task.
	dropped func()
}

// offer hands fn to agent to once this agent's turn is over, never from
// inside it. Enqueued in turn, fn could be done right here, on this
// agent's goroutine and under its turn: a parent's task done so may stop
// its child and wait for the child's loop (persistLinked), which is this
// very turn, and neither would return. In turn.
func (a *Agent) offer(to *Agent, fn func()) {
	a.offers = append(a.offers, offer{to: to, fn: fn})
}

// deliver hands offers to their agents, after the turn that made them.
func deliver(offers []offer) {
	for _, o := range offers {
		if !o.to.takeOffer(&task{fn: o.fn}) && o.dropped != nil {
			o.dropped()
		}
	}
}

// takeOffer queues t, which the goroutine handing it in must not do: it
// works for another agent of the tree, and this agent's tasks may wait
// for it. A parent's Close, done on its child's worker, closes the
// child, which waits for its workers, that one among them. So when no
// one is doing the agent's tasks, a goroutine of its own does them,
// counted among its workers so that Close waits for it; counted under
// qmu before Close has had its turn, as a job is in turn. Once Close has
// had its turn, t is dropped, and takeOffer says so: a closed agent has
// no run to take it.
func (a *Agent) takeOffer(t *task) (taken bool) {
	a.qmu.Lock()
	defer a.qmu.Unlock()
	if a.shut {
		return false
	}
	a.queue = append(a.queue, *t)
	if a.draining {
		return true
	}
	a.draining = true
	a.workers.Add(1)
	go a.doOffered()
	return true
}

// doOffered does the tasks queued, an offer first, for takeOffer.
func (a *Agent) doOffered() {
	defer a.workers.Done()
	a.enqueue(nil)
}

// releaseOffers hands the offers held while a delegate's child began to
// their agents, and those made from now on as they come. Not in turn:
// held offers are delivered here when no task is being done, else by
// whoever does the tasks once they are done.
func (a *Agent) releaseOffers() {
	a.qmu.Lock()
	a.holdOffers = false
	if a.draining {
		a.qmu.Unlock()
		return
	}
	offers := a.offers
	a.offers = nil
	a.qmu.Unlock()
	deliver(offers)
}
