package dispatch

import (
	"container/heap"
	"time"
)

// deadlines times out a scheduler's running calls with one timer, armed
// for the earliest deadline, instead of a timer of their own each: a
// call's start and end only move it in a heap. Guarded by the
// scheduler's mu.
type deadlines struct {
	jobs  jobHeap
	timer *time.Timer
	armed time.Duration // the due time the timer is armed for; zero: stopped
}

// addDeadline starts timing j out at its deadline.
func (s *Scheduler) addDeadline(j *job) {
	d := &s.deadlines
	heap.Push(&d.jobs, j)
	s.armDeadline()
}

// dropDeadline stops timing j out; it ended first.
func (s *Scheduler) dropDeadline(j *job) {
	d := &s.deadlines
	if j.heapAt < 0 {
		return
	}
	heap.Remove(&d.jobs, j.heapAt)
	if len(d.jobs) == 0 && d.timer != nil {
		d.timer.Stop()
		d.armed = 0
	}
}

// armDeadline arms the timer for the earliest deadline, unless it is
// armed for that one or an earlier one already.
func (s *Scheduler) armDeadline() {
	d := &s.deadlines
	if len(d.jobs) == 0 {
		return
	}
	next := d.jobs[0].due()
	if d.armed != 0 && next >= d.armed {
		return
	}
	d.armed = next
	if d.timer == nil {
		d.timer = time.AfterFunc(next-sinceOrigin(), s.deadlinesDue)
		return
	}
	d.timer.Reset(next - sinceOrigin())
}

// deadlinesDue times out the calls whose deadline has come and arms the
// timer for the next.
func (s *Scheduler) deadlinesDue() {
	s.mu.Lock()
	d := &s.deadlines
	d.armed = 0
	now := sinceOrigin()
	var due []*job
	for len(d.jobs) > 0 && d.jobs[0].due() <= now {
		due = append(due, heap.Pop(&d.jobs).(*job))
	}
	s.armDeadline()
	s.mu.Unlock()
	for _, j := range due {
		j.timedOut()
	}
}

// jobHeap orders running jobs by deadline (container/heap).
type jobHeap []*job

func (h jobHeap) Len() int           { return len(h) }
func (h jobHeap) Less(a, b int) bool { return h[a].due() < h[b].due() }
func (h jobHeap) Swap(a, b int) {
	h[a], h[b] = h[b], h[a]
	h[a].heapAt, h[b].heapAt = a, b
}
func (h *jobHeap) Push(x any) {
	j := x.(*job)
	j.heapAt = len(*h)
	*h = append(*h, j)
}
func (h *jobHeap) Pop() any {
	old := *h
	j := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	j.heapAt = -1
	return j
}
