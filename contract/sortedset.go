package contract

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"iter"
	"slices"
	"strings"
)

// SortedSet is a set of strings kept in order, which a step extends
// without copying it whole: past setRun entries they sit in sorted runs
// of at most setRun each, so adding copies one run and the list of runs,
// and a snapshot's set shares every other run with the snapshot it came
// from. A set is a value: With returns a new one and leaves its receiver
// as it was. Its JSON is the sorted list of its entries.
//
// An entry of up to 16 bytes with no zero byte (the no-progress guard's
// hashes, say) is held as a key of two integers that orders as the
// string does, so runs hold no pointers: copying one needs no write
// barrier and the collector does not scan it. Other entries are kept
// apart, sorted, and copied whole when one is added.
type SortedSet struct {
	small []setKey   // the keyed entries, while there are at most setRun
	runs  [][]setKey // the keyed entries in runs, once there are more
	n     int        // keyed entries
	// other points at the entries that do not fit a key, sorted; nil
	// when there are none, as there usually are, so a snapshot holding
	// the set stays small.
	other *[]string
}

const setRun = 64

// setKey is an entry of up to 16 bytes without a zero byte, big-endian
// and padded with zeros: keys order as their strings do.
type setKey [2]uint64

func keyOf(s string) (setKey, bool) {
	if len(s) > 16 || strings.IndexByte(s, 0) >= 0 {
		return setKey{}, false
	}
	var b [16]byte
	copy(b[:], s)
	return setKey{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}, true
}

func (k setKey) String() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], k[0])
	binary.BigEndian.PutUint64(b[8:], k[1])
	n := 16
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return string(b[:n])
}

func compareKeys(a, b setKey) int {
	if c := cmp.Compare(a[0], b[0]); c != 0 {
		return c
	}
	return cmp.Compare(a[1], b[1])
}

// SortedSetOf returns the set of xs.
func SortedSetOf(xs ...string) SortedSet { return SortedSet{}.With(xs...) }

// Len is the number of entries.
func (s SortedSet) Len() int { return s.n + len(s.others()) }

// others is the entries that do not fit a key.
func (s SortedSet) others() []string {
	if s.other == nil {
		return nil
	}
	return *s.other
}

// IsZero reports whether the set is empty.
func (s SortedSet) IsZero() bool { return s.Len() == 0 }

// Has reports whether x is in the set.
func (s SortedSet) Has(x string) bool {
	k, ok := keyOf(x)
	if !ok {
		_, found := slices.BinarySearch(s.others(), x)
		return found
	}
	run := s.small
	if s.runs != nil {
		run = s.runs[s.runOf(k)]
	}
	_, found := slices.BinarySearchFunc(run, k, compareKeys)
	return found
}

// runOf returns the run that holds k, or would: the first whose last
// entry is not below k, else the last run.
func (s SortedSet) runOf(k setKey) int {
	r, _ := slices.BinarySearchFunc(s.runs, k, func(run []setKey, k setKey) int {
		if compareKeys(run[len(run)-1], k) < 0 {
			return -1
		}
		return 1
	})
	return min(r, len(s.runs)-1)
}

// With returns the set with xs added.
func (s SortedSet) With(xs ...string) SortedSet {
	var room [8]setKey
	keys := room[:0]
	var others []string
	for _, x := range xs {
		if k, ok := keyOf(x); ok {
			keys = append(keys, k)
		} else {
			others = append(others, x)
		}
	}
	out := s.withKeys(keys)
	if len(others) > 0 {
		slices.Sort(others)
		if merged := mergeSorted(s.others(), slices.Compact(others), strings.Compare); len(merged) != len(s.others()) {
			out.other = &merged
		}
	}
	return out
}

// withKeys is the set with keys added; keys is sorted in place.
func (s SortedSet) withKeys(keys []setKey) SortedSet {
	slices.SortFunc(keys, compareKeys)
	keys = slices.Compact(keys)
	if s.runs == nil {
		small := mergeSorted(s.small, keys, compareKeys)
		switch {
		case len(small) == len(s.small):
			return s
		case len(small) <= setRun:
			return SortedSet{small: small, n: len(small), other: s.other}
		}
		return SortedSet{runs: split(small, nil), n: len(small), other: s.other}
	}
	runs := s.runs
	copied := false
	n := s.n
	// Added one run at a time, from the last, so the run indexes of the
	// smaller keys stay valid.
	for len(keys) > 0 {
		r := s.runOf(keys[len(keys)-1])
		if !copied {
			runs = slices.Clone(s.runs)
			copied = true
		}
		// The keys that belong to run r: those above the previous run's
		// last (one equal to it is that run's).
		from := 0
		if r > 0 {
			prev := runs[r-1]
			var equal bool
			if from, equal = slices.BinarySearchFunc(keys, prev[len(prev)-1], compareKeys); equal {
				from++
			}
		}
		run := mergeSorted(runs[r], keys[from:], compareKeys)
		n += len(run) - len(runs[r])
		keys = keys[:from]
		if len(run) <= setRun {
			runs[r] = run
			continue
		}
		runs = slices.Replace(runs, r, r+1, split(run, nil)...)
	}
	if n == s.n {
		return s
	}
	return SortedSet{runs: runs, n: n, other: s.other}
}

// mergeSorted returns the sorted union of sorted a and b in a new slice,
// or a itself when b adds nothing.
func mergeSorted[T any](a, b []T, compare func(T, T) int) []T {
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := compare(a[i], b[j]); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
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
func split(xs []setKey, runs [][]setKey) [][]setKey {
	for len(xs) > setRun {
		runs = append(runs, xs[:setRun/2:setRun/2])
		xs = xs[setRun/2:]
	}
	return append(runs, xs)
}

// keys yields the keyed entries in order.
func (s SortedSet) keys() iter.Seq[setKey] {
	return func(yield func(setKey) bool) {
		if s.runs == nil {
			for _, k := range s.small {
				if !yield(k) {
					return
				}
			}
			return
		}
		for _, run := range s.runs {
			for _, k := range run {
				if !yield(k) {
					return
				}
			}
		}
	}
}

// All yields the entries in order.
func (s SortedSet) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		other := s.others()
		for k := range s.keys() {
			x := k.String()
			for len(other) > 0 && other[0] < x {
				if !yield(other[0]) {
					return
				}
				other = other[1:]
			}
			if !yield(x) {
				return
			}
		}
		for _, x := range other {
			if !yield(x) {
				return
			}
		}
	}
}

// Equal reports whether both sets hold the same entries, however they
// are laid out.
func (s SortedSet) Equal(o SortedSet) bool {
	if s.n != o.n || !slices.Equal(s.others(), o.others()) {
		return false
	}
	next, stop := iter.Pull(o.keys())
	defer stop()
	for k := range s.keys() {
		if l, _ := next(); k != l {
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
