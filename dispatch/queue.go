package dispatch

// fifo is the queue of waiting jobs. Cancelled jobs stay in it as
// tombstones (state no longer queued) and are dropped when they reach the
// head, so cancelling a queued call costs O(1).
type fifo struct {
	items []*job
	head  int
}

func (q *fifo) push(j *job) {
	if q.head > 0 && q.head == len(q.items) {
		clear(q.items)
		q.items = q.items[:0]
		q.head = 0
	} else if q.head > 32 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items = q.items[:n]
		q.head = 0
	}
	q.items = append(q.items, j)
}

func (q *fifo) peek() *job {
	if q.head == len(q.items) {
		return nil
	}
	return q.items[q.head]
}

func (q *fifo) pop() {
	q.items[q.head] = nil
	q.head++
}
