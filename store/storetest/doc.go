// Package storetest checks that a store.Store obeys the rules every
// backend must keep, in the manner of testing/slogtest: Run drives a fresh
// store through each rule and says which rule broke and why it matters;
// RunBackend does the same for a store.Backend, checking its seam first.
// It also builds the scripted record sequences the store's own crash and
// kill tests use. It imports contract and store.
package storetest
