package contract

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"iter"
	"math/bits"
	"slices"
	"sync/atomic"
)

// SortedSet is a set of strings kept in order, which a step extends
// without copying it. New entries go into a tail of unsorted slots that
// the sets made one from another share: a set holds the tail's first m
// slots, and extending it takes the next free slot when no other set
// took it first, as History.Append does, so most additions copy nothing
// and allocate nothing. A full tail is sorted into the merged entries,
// which sit in sorted runs of at most setRun each, so that merge copies
// only the runs it lands in and the list of runs; a snapshot's set
// shares every other run with the snapshot it came from. A set is a
// value: With returns a new one and leaves its receiver as it was. Its
// JSON is the sorted list of its entries.
//
// An entry of up to 16 bytes with no zero byte (the no-progress guard's
// hashes, say) is held as a key of two integers that orders as the
// string does, so runs and tails hold no pointers: copying one needs no
// write barrier and the collector does not scan it. Other entries are
// kept apart, sorted, and copied whole when one is added.
type SortedSet struct {
	runs [][]setKey // the merged keyed entries, in sorted runs
	tail *setTail   // keyed entries added since the last merge, unsorted
	n    int32      // keyed entries in runs
	m    int32      // slots of tail this set holds
	// other points at the entries that do not fit a key, sorted; nil
	// when there are none, as there usually are, so a snapshot holding
	// the set stays small.
	other *[]string
}

// setTail is the slots new keys go into. Sets that share a tail share
// its slots below their m; used counts the slots taken, so that of two
// sets extended from one, only the first writes the next slot.
type setTail struct {
	used atomic.Int32
	keys []setKey
}

// A tail is smallest while the set is (most runs' guards see a handful
// of results), and grows with it to setRun slots, so a long run merges
// once every setRun additions.
const minTail = 4

const setRun = 32

// setKey is an entry of up to 16 bytes without a zero byte, big-endian
// and padded with zeros: keys order as their strings do.
type setKey [2]uint64

func keyOf(s string) (setKey, bool) {
	var k setKey
	if len(s) > 16 {
		return k, false
	}
	// Byte by byte rather than through a [16]byte copy: a step reaches
	// here deep in the caller's stack, and every byte of frame counts.
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return setKey{}, false
		}
		k[i/8] |= uint64(s[i]) << (56 - 8*(i%8))
	}
	return k, true
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
func (s SortedSet) Len() int { return int(s.n) + int(s.m) + len(s.others()) }

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
	return s.hasKey(k)
}

// HasHex reports whether the set holds h as strconv.FormatUint(h, 16)
// writes it, without building the string: the no-progress guard asks
// this for every tool result.
func (s SortedSet) HasHex(h uint64) bool { return s.hasKey(hexKey(h)) }

func (s SortedSet) hasKey(k setKey) bool {
	if s.m > 0 && slices.Contains(s.tail.keys[:s.m], k) {
		return true
	}
	if len(s.runs) == 0 {
		return false
	}
	_, found := searchKeys(s.runs[runOf(s.runs, k)], k)
	return found
}

// WithHex returns the set with each of hs added as strconv.FormatUint
// writes it in base 16, without building the strings.
func (s SortedSet) WithHex(hs ...uint64) SortedSet {
	var room [8]setKey
	keys := room[:0]
	for _, h := range hs {
		keys = append(keys, hexKey(h))
	}
	s.addKeys(keys)
	return s
}

// hexKey is the key of h's lowercase hexadecimal digits, without leading
// zeros: at most 16 bytes, none of them zero, so every such string has one.
// The digits are made sixteen at a time, in two words, and the leading
// zeros shifted out; the guard makes two keys for every tool result.
func hexKey(h uint64) setKey {
	hi, lo := hexDigits8(uint32(h>>32)), hexDigits8(uint32(h))
	// Left-align the significant digits, zero bytes after them.
	shift := uint(bits.LeadingZeros64(h)/4) * 8
	if h == 0 {
		shift = 15 * 8 // "0"
	}
	if shift >= 64 {
		return setKey{lo << (shift - 64), 0}
	}
	return setKey{hi<<shift | lo>>(64-shift), lo << shift}
}

// hexDigits8 is v's eight hexadecimal digits, leading zeros and all, as
// a big-endian word of lowercase ASCII.
func hexDigits8(v uint32) uint64 {
	const ones = 0x0101010101010101
	// One nibble a byte, the most significant in the highest byte.
	x := uint64(v)
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	// '0' + n, and 'a'-'0'-10 more where n is ten or more.
	letters := (x + 6*ones) >> 4 & ones
	return x + '0'*ones + letters*('a'-'0'-10)
}

// runOf returns the run of runs that holds k, or would: the first whose
// last entry is not below k, else the last run.
func runOf(runs [][]setKey, k setKey) int {
	lo, hi := 0, len(runs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if last := runs[m][len(runs[m])-1]; keyBelow(last, k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return min(lo, len(runs)-1)
}

// searchKeys is slices.BinarySearchFunc(keys, k, compareKeys) written
// out, so that no comparison goes through a function value: the guard
// searches the set for every tool result.
func searchKeys(keys []setKey, k setKey) (int, bool) {
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keyBelow(keys[m], k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(keys) && keys[lo] == k
}

// keyBelow reports whether a orders before b.
func keyBelow(a, b setKey) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }

// With returns the set with xs added.
func (s SortedSet) With(xs ...string) SortedSet {
	s.add(xs)
	return s
}

// add puts xs into *s, a copy the caller owns: the runs and entries it
// shares with other sets are replaced, never written to. The work is
// done through a pointer because a step adds to the no-progress set
// deep in its caller's stack, where every copy of a set in a frame
// counts.
func (s *SortedSet) add(xs []string) {
	var room [8]setKey
	keys := room[:0]
	others := false
	for _, x := range xs {
		if k, ok := keyOf(x); ok {
			keys = append(keys, k)
		} else {
			others = true
		}
	}
	s.addKeys(keys)
	if others {
		s.addOthers(xs)
	}
}

// addOthers adds those of xs that fit no key.
func (s *SortedSet) addOthers(xs []string) {
	var others []string
	for _, x := range xs {
		if _, ok := keyOf(x); !ok {
			others = append(others, x)
		}
	}
	merged := append(others, s.others()...)
	slices.Sort(merged)
	if merged = slices.Compact(merged); len(merged) != len(s.others()) {
		s.other = &merged
	}
}

// addKeys adds keys: each new one goes into the tail's next slot, and
// a tail that is full, or whose next slot another set took, is merged
// into the runs first.
func (s *SortedSet) addKeys(keys []setKey) {
	for _, k := range keys {
		if s.hasKey(k) {
			continue
		}
		if !s.claim(k) {
			s.merge()
			size := min(max(int(s.n)/2, minTail), setRun)
			s.tail = &setTail{keys: make([]setKey, size)}
			s.claim(k)
		}
	}
}

// claim puts k into the tail's next slot, if this set may take it.
func (s *SortedSet) claim(k setKey) bool {
	t := s.tail
	if t == nil || int(s.m) == len(t.keys) || !t.used.CompareAndSwap(s.m, s.m+1) {
		return false
	}
	t.keys[s.m] = k
	s.m++
	return true
}

// merge sorts the set's tail slots into its runs and lets go of the tail.
func (s *SortedSet) merge() {
	if s.m == 0 {
		s.tail = nil
		return
	}
	var room [setRun]setKey
	keys := append(room[:0], s.tail.keys[:s.m]...)
	slices.SortFunc(keys, compareKeys)
	s.tail, s.m = nil, 0
	if s.runs == nil {
		s.runs, s.n = split(mergeKeys(nil, keys)), int32(len(keys))
		return
	}
	old := s.runs
	runs := slices.Clone(old)
	// Added one run at a time, from the last, so the run indexes of the
	// smaller keys in the runs as they were stay valid.
	for len(keys) > 0 {
		r := runOf(old, keys[len(keys)-1])
		// The keys that belong to run r: those above the previous run's
		// last (one equal to it is that run's).
		from := 0
		if r > 0 {
			prev := runs[r-1]
			var equal bool
			if from, equal = searchKeys(keys, prev[len(prev)-1]); equal {
				from++
			}
		}
		run := mergeKeys(runs[r], keys[from:])
		s.n += int32(len(run) - len(runs[r]))
		keys = keys[:from]
		if len(run) <= setRun {
			runs[r] = run
			continue
		}
		runs = slices.Replace(runs, r, r+1, split(run)...)
	}
	s.runs = runs
}

// mergeKeys returns the sorted union of sorted a and b in a new slice,
// or a itself when b adds nothing.
func mergeKeys(a, b []setKey) []setKey {
	if len(b) == 0 {
		return a
	}
	out := make([]setKey, len(a)+len(b))
	i, j, n := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := compareKeys(a[i], b[j]); {
		case c < 0:
			out[n] = a[i]
			i++
		case c > 0:
			out[n] = b[j]
			j++
		default:
			out[n] = a[i]
			i++
			j++
		}
		n++
	}
	n += copy(out[n:], a[i:])
	n += copy(out[n:], b[j:])
	if n == len(a) {
		return a
	}
	return out[:n:n]
}

// split cuts a sorted list into runs of setRun/2.
func split(xs []setKey) (runs [][]setKey) {
	for len(xs) > setRun {
		runs = append(runs, xs[:setRun/2:setRun/2])
		xs = xs[setRun/2:]
	}
	return append(runs, xs)
}

// keys yields the keyed entries in order: the runs' merged with the
// tail's, sorted apart.
func (s SortedSet) keys() iter.Seq[setKey] {
	return func(yield func(setKey) bool) {
		var tail []setKey
		if s.m > 0 {
			tail = slices.SortedFunc(slices.Values(s.tail.keys[:s.m]), compareKeys)
		}
		for _, run := range s.runs {
			for _, k := range run {
				for len(tail) > 0 && keyBelow(tail[0], k) {
					if !yield(tail[0]) {
						return
					}
					tail = tail[1:]
				}
				if !yield(k) {
					return
				}
			}
		}
		for _, k := range tail {
			if !yield(k) {
				return
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
	if s.n+s.m != o.n+o.m || !slices.Equal(s.others(), o.others()) {
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
