package conductor

// offer is a task for another agent of the delegation tree.
type offer struct {
	to *Agent
	fn func()
}

// offer hands fn to agent to once this agent's turn is over, never from
// inside it. Enqueued in turn, fn could be done right here, on this
// agent's goroutine and under its turn: a parent's task done so may stop
// its child and wait for the child's loop (persistLinked), which is this
// very turn, and neither would return. In turn.
func (a *Agent) offer(to *Agent, fn func()) {
	a.offers = append(a.offers, offer{to: to, fn: fn})
}

// deliver enqueues offers with their agents, after the turn that made
// them.
func deliver(offers []offer) {
	for _, o := range offers {
		o.to.enqueue(&task{fn: o.fn})
	}
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
