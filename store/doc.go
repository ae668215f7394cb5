// Package store keeps sessions durably as a content-addressed DAG. Every
// object is canonical bytes named by its blake3-256 hash; a session is a
// chain of record nodes, each naming its parent's hash and holding one
// committed contract.Record, and a head ref names the newest node. A
// delegated run's chain is linked into a node of its parent session, so
// the graph is a DAG. Every read hashes what it read again and reports
// damage as a typed error, never as data.
//
// The rules live once, in the Store that New builds over a Backend: the
// raw storage of objects by hash, refs moved by compare-and-set, and
// session locks. A lock is held as a Lease, which tells its holder when
// the backend loses it (LosableLock), and is let go on purpose (Release)
// or as by a holder that dies (Leave). One node is at most MaxNode bytes
// (16 MiB) in every store, so whatever one store took, it can export and
// a store of any backend can import.
//
// Backends here:
//   - NewMemoryBackend, behind NewMemory's store. That store is the only
//     reader of its backend, so it is a Recorder: a record is hashed, with
//     the nodes after it, only when the store is next read, and a model's
//     reply or a tool's result is encoded only then too. A session no one
//     reads costs no hashing.
//   - The file backend of Open and OpenFS keeps each session in one
//     append-only, checksummed log with one data sync per commit; commits
//     of sessions that share a disk are synced together. All its I/O goes
//     through a vfs.FS, so crashes and faults can be simulated. A folder
//     the user may only read opens for reading, its commits refused; on a
//     file system that ignores case, a session whose id differs from
//     another's only in case is refused rather than read from its log.
//   - Open also takes URLs of schemes other packages register
//     (store/postgres).
//
// Resume and Replay fold a session's records through cadence. The package
// imports contract, cadence and its own vfs, nothing else of baton's.
package store
