// Resume shows a crash and its recovery. The program runs itself as a
// child process whose tool kills the process mid-call, after the call was
// recorded as started. The parent then opens the same file store and
// resumes the session: the interrupted call is not idempotent, so the
// model is told it is indeterminate and decides what to do.
package main
