// Package postgres is a store.Backend on PostgreSQL, for several machines
// sharing sessions. Objects sit in a table keyed by their hash and are
// never rewritten; a commit inserts a step's objects and moves the
// session's head by compare-and-set in one statement, so a step is atomic
// and PostgreSQL's group commit serves concurrent sessions. The session
// lock is an advisory lock held on the backend's owner connection, so an
// owner that dies frees it; each lock taken bumps the session's owner
// epoch, and every commit of an owner checks its epoch, so a stale owner
// that lost the lock cannot move the head (store.ErrLockLost). While it
// holds locks, a backend probes its owner connection every second, so an
// owner learns within seconds, not at its next commit, that the
// connection and every lock on it ended (store.LosableLock); a server
// that answers slowly for a few seconds loses it nothing, as the owner
// gives the connection up only after 15 s without an answer, before the
// server's keepalives would free its locks. An owner
// records, with its epoch, the address it advertises (Advertise), so
// that others find it while it holds the lock (Owner); it withdraws the
// address when it lets the session go, so a session whose owner died is
// one with an address and a free lock (Orphans); so is one its owner
// left with work in flight (store.Lease.Leave), and one whose lock its
// owner lost before letting it go, for another to take up. The
// package creates and migrates its tables, with a version, in the schema
// the URL's search_path names. Importing it registers postgres:// and
// postgresql:// with store.Open. It imports store and pgx.
package postgres
