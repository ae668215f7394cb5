// Package agui encodes baton's run events as AG-UI events (protocol 1.0)
// and decodes AG-UI's RunAgentInput. A Projector turns one stream of
// baton events into AG-UI events: live deltas become message content and
// a turn's completion closes what they opened (sending whatever text they
// did not carry); re-projected from the store, where there are no
// deltas, a completion becomes whole messages. A completion whose
// stored turn is not what streamed (an attempt broke after it streamed,
// the runtime dropped or mended a call) is Diverged: the client holds
// messages the session does not, which only a MESSAGES_SNAPSHOT of
// Session.Messages takes off. The wire package's handler
// serves it over HTTP; a host with its own transport uses the Projector
// directly. The events one call of it returns (Project, Resume) carry
// one SSE id between them: a transport writes them at once, as the
// handler does, since a client cut between them may hold frames past
// its newest id, which the stream it resumes sends again.
//
// What AG-UI has no event for (approvals, steering, compaction, retries,
// tools starting, a tool result's output cut, lag) travels as CUSTOM
// events named baton.*.
//
// A delegated run (an event with a Subflow path) is shown as an AG-UI
// step, STEP_STARTED to STEP_FINISHED, named by its path and delegate:
// every AG-UI client renders steps, while a child's messages would land
// in the run's one message list as if the parent had said them. The
// child's own work goes as CUSTOM baton.subflow events carrying the path,
// each with an SSE id of its own, so a client cut inside a delegated run
// resumes after the child's event it last got.
//
// agui imports contract and internal/redact of baton's packages, and
// wire's internal track.
package agui
