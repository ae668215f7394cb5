// Package redact takes what a web client must not see out of the error
// texts the wire sends it: the upstream model's URLs and anything shaped
// like a credential. The full error stays in the store and the logs.
//
// redact imports none of baton's packages.
package redact
