package contract

// Instruction is one project instruction file (an AGENTS.md and the like)
// added to a run's system prompt.
type Instruction struct {
	// Name is the file's path, relative to the session's working
	// directory.
	Name string `json:"name"`
	// Hash is the hex blake3-256 hash of Text.
	Hash string `json:"hash"`
	Text string `json:"text"`
}
