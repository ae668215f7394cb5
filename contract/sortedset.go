package contract

import (
	"encoding/json"
	"iter"
	"slices"
)

// SortedSet is a set of strings kept in order, which a step extends
// without copying it whole: past setRun entries they sit in sorted runs
// of at most setRun each, so adding copies one run and the list of runs,
// and a snapshot's set shares every other run with the snapshot it came
// from. A set is a value: With returns a new one and leaves its receiver
// as it was. Its JSON is the sorted list of its entries.
type SortedSet struct {
	small []string   // the entries, while there are at most setRun
	runs  [][]string // the entries in runs, once there are more
	n     int
}

const setRun = 64

// SortedSetOf returns the set of xs.
func SortedSetOf(xs ...string) SortedSet { return SortedSet{}.With(xs...) }

// Len is the number of entries.
func (s SortedSet) Len() int { return s.n }

// IsZero reports whether the set is empty.
func (s SortedSet) IsZero() bool { return s.n == 0 }

// Has reports whether x is in the set.
func (s SortedSet) Has(x string) bool {
	if s.runs == nil {
		_, ok := slices.BinarySearch(s.small, x)
		return ok
	}
	r := s.runOf(x)
	_, ok := slices.BinarySearch(s.runs[r], x)
	return ok
}

// runOf returns the run that holds x, or would: the first whose last
// entry is not below x, else the last run.
func (s SortedSet) runOf(x string) int {
	r, _ := slices.BinarySearchFunc(s.runs, x, func(run []string, x string) int {
		if run[len(run)-1] < x {
			return -1
		}
		return 1
	})
	return min(r, len(s.runs)-1)
}

// With returns the set with xs added. xs is sorted in place.
func (s SortedSet) With(xs ...string) SortedSet {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if s.runs == nil {
		small := merge(s.small, xs)
		if len(small) == len(s.small) {
			return s
		}
		if len(small) <= setRun {
			return SortedSet{small: small, n: len(small)}
		}
		return SortedSet{runs: split(small, nil), n: len(small)}
	}
	runs := s.runs
	copied := false
	n := s.n
	// Added one run at a time, from the last, so the run indexes of the
	// smaller xs stay valid.
	for len(xs) > 0 {
		r := s.runOf(xs[len(xs)-1])
		if !copied {
			runs = slices.Clone(s.runs)
			copied = true
		}
		// The xs that belong to run r: those above the previous run's
		// last (one equal to it is that run's).
		from := 0
		if r > 0 {
			prev := runs[r-1]
			var equal bool
			if from, equal = slices.BinarySearch(xs, prev[len(prev)-1]); equal {
				from++
			}
		}
		run := merge(runs[r], xs[from:])
		n += len(run) - len(runs[r])
		xs = xs[:from]
		if len(run) <= setRun {
			runs[r] = run
			continue
		}
		runs = slices.Replace(runs, r, r+1, split(run, nil)...)
	}
	if n == s.n {
		return s
	}
	return SortedSet{runs: runs, n: n}
}

// merge returns the sorted union of sorted a and b in a new slice, or a
// itself when b adds nothing.
func merge(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(append(out, a[i:]...), b[j:]...)
	if len(out) == len(a) {
		return a
	}
	return out
}

// split cuts a sorted list into runs of setRun/2, appended to runs.
func split(xs []string, runs [][]string) [][]string {
	for len(xs) > setRun {
		runs = append(runs, xs[:setRun/2:setRun/2])
		xs = xs[setRun/2:]
	}
	return append(runs, xs)
}

// All yields the entries in order.
func (s SortedSet) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		if s.runs == nil {
			for _, x := range s.small {
				if !yield(x) {
					return
				}
			}
			return
		}
		for _, run := range s.runs {
			for _, x := range run {
				if !yield(x) {
					return
				}
			}
		}
	}
}

// Equal reports whether both sets hold the same entries, however they
// are laid out.
func (s SortedSet) Equal(o SortedSet) bool {
	if s.n != o.n {
		return false
	}
	next, stop := iter.Pull(o.All())
	defer stop()
	for x := range s.All() {
		if y, _ := next(); x != y {
			return false
		}
	}
	return true
}

// MarshalJSON writes the sorted list of entries.
func (s SortedSet) MarshalJSON() ([]byte, error) {
	return json.Marshal(slices.Collect(s.All()))
}

// UnmarshalJSON reads a list of entries, in any order.
func (s *SortedSet) UnmarshalJSON(b []byte) error {
	var xs []string
	if err := json.Unmarshal(b, &xs); err != nil {
		return err
	}
	*s = SortedSetOf(xs...)
	return nil
}
