// Package store keeps sessions durably as a content-addressed DAG. Every
// object is canonical bytes named by its blake3-256 hash; a session is a
// chain of record nodes, each naming its parent's hash and holding one
// committed contract.Record, and a head ref names the newest node. A
// delegated run's chain is linked into a node of its parent session, so
// the graph is a DAG. Every read re-hashes what it read and reports damage
// as a typed error, never as data. One node is at most MaxNode bytes
// (16 MiB) in every store, so whatever a store took it can export, and
// a store of any backend import.
//
// The rules live once, in the Store that New builds over a Backend: the
// raw storage of objects by hash, refs moved by compare-and-set, and
// session locks, held as a Lease, which tells its holder when a backend
// loses the lock while the holder lives (LosableLock), and is let go on
// purpose (Release) or as by a holder that dies (Leave, which a Leaver
// lock tells apart). NewMemory's store,
// the only reader of its own backend, is a Recorder: a record taken
// through Record is hashed, with the nodes after it, only when the store is next read, and a model's reply or a
// tool's result is kept as it is and encoded only then too, so a session
// no one reads costs no hashing and encodes only its other records. Backends here:
// NewMemoryBackend, and the file backend of
// Open/OpenFS, which keeps each session in one append-only, checksummed
// log with one data sync per commit (commits of sessions that share a
// disk are synced together, one flush of the file system for all that
// arrived while the previous flush ran) and does all I/O through a vfs.FS
// so crashes and faults can be simulated. A folder the user may only read
// opens for reading, its commits refused; on a file system that ignores
// case, a session whose id differs from another's only in case is
// refused rather than read from the other's log. Open also takes URLs of schemes
// other packages register (store/postgres). Resume and Replay fold a
// session's records through cadence, the only other package of ours this
// one imports besides contract and its own vfs.
package store
