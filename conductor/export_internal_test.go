package conductor

// Queued reports how many tasks wait in a's queue behind the one being
// done, so tests outside the package can tell that a call has reached
// the agent without sleeping on it.
func Queued(a *Agent) int { return a.queued() }
