// Package sse writes Server-Sent Events for the wire's handler and the
// protocol encoders' tests: ids, event names and data lines framed so
// that no payload can break out of its event.
//
// sse imports none of baton's packages.
package sse
