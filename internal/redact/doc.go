// Package redact takes what a web client or a model must not see out of
// error texts: the upstream model's URLs and anything shaped like a
// credential. The wire redacts the errors it sends clients, the conductor
// a delegate's failure it hands the parent's model; the full error stays
// in the logs, and a run's own fault in its session.
//
// redact imports none of baton's packages.
package redact
