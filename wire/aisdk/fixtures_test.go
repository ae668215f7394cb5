package aisdk

import wt "github.com/batonrt/baton/wire/internal/wiretest"

var (
	ev             = wt.Ev
	with           = wt.With
	assistantTurn  = wt.AssistantTurn
	liveRun        = wt.LiveRun
	committedOnly  = wt.CommittedOnly
	callA, resultA = wt.CallA, wt.ResultA
	usage          = wt.Usage
)
