// Package wiretest holds the event fixtures the wire packages' tests
// share: a live run as subscribers see it, and helpers to build events.
//
// wiretest imports contract of baton's packages.
package wiretest
