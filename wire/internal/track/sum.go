package track

// sum is a running FNV-1a hash of what a part of a model call streamed,
// seeded with zero: a mark carries the parts' sums, so that a resume
// tells the client's model call from another one whose parts streamed
// as many bytes (the same call made again by a process that took the
// thread on after the one the client followed died).
type sum uint32

func (h *sum) add(s string) {
	for i := 0; i < len(s); i++ {
		*h ^= sum(s[i])
		*h *= 16777619
	}
}

// fold folds part, the sum of a part of a model call, into h, the sum
// of the call's parts in the order a mark lists them.
func (h *sum) fold(part sum) {
	for range 4 {
		*h ^= part & 0xff
		*h *= 16777619
		part >>= 8
	}
}
