// Package vfs is the small file-system interface the store's file backend
// does all its I/O through, with three implementations: the operating
// system's (OS), a crashable in-memory one that can lose what was not
// synced (Mem), and a wrapper that injects errors at a chosen operation
// (Faulty). The OS one is also a FlushFS, which makes every file durable
// with one flush of the file system. Paths are slash-separated and relative to the FS's root. It
// imports nothing of baton's.
package vfs
