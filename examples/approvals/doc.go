// Approvals runs a tool that needs the host's approval: the run waits in
// awaiting_approval until Agent.Approve answers (the agent is made with
// ApproveLater: without an approver such calls are denied), here from an event
// subscriber standing in for a person.
package main
