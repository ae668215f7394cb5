// Customstore implements a store.Backend, the raw storage under a
// store.Store, and hands store.New over it to an agent. The backend keeps
// objects and refs in maps and prints an audit line per commit; every
// rule of the store (hashes, chains, checkpoints, export) comes from
// store.New. The test beside it runs the conformance suite
// (storetest.RunBackend) over the backend, which is how any backend
// proves itself.
package main
