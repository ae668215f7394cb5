package contract

import "time"

// Timestamp is a wall-clock instant in Unix nanoseconds, stamped by the
// conductor. Keeping it an integer makes the canonical encoding exact and
// lets the pure reducer do arithmetic on it without the time package.
type Timestamp int64

// TimestampOf converts a time.Time.
func TimestampOf(t time.Time) Timestamp { return Timestamp(t.UnixNano()) }

// Time converts back to a time.Time in UTC.
func (ts Timestamp) Time() time.Time { return time.Unix(0, int64(ts)).UTC() }
