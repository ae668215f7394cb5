// Package vfs is the small file-system interface the store's file backend
// does all its I/O through, with three implementations: the operating
// system's (OS), a crashable in-memory one that can lose what was not
// synced (Mem), and a wrapper that injects errors at a chosen operation
// (Faulty). Paths are slash-separated and relative to the FS's root. It
// imports nothing of baton's.
package vfs
