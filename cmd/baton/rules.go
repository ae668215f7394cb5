package main

import (
	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// baseConfig is the agent configuration every session the command line
// drives runs under. Its tools are given per run, so each Submitted
// record names them and a session replays under these rules alone,
// whatever tools the run that made it was allowed.
func baseConfig(model string) contract.AgentConfig {
	return contract.AgentConfig{
		Model:  model,
		System: systemPrompt,
	}
}

const systemPrompt = "You are baton's command-line agent. You work in a workspace folder through the tools you are given; paths are relative to it. Be brief."

// replayRules are the rules sessions are folded and replayed under.
func replayRules() *cadence.Rules { return cadence.New(baseConfig("replay")) }
