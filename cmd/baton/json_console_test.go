package main

import (
	"context"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/provider/scripted"
)

// TestJSONRunSaysWhyATypedLineDidNotSteer: with --json at a terminal,
// a line typed that the agent does not take as steering (no run is in
// flight) says why on stderr, whether the terminal echoes or not; the
// JSON stream on stdout holds events only. The error went nowhere.
func TestJSONRunSaysWhyATypedLineDidNotSteer(t *testing.T) {
	for _, echoes := range []bool{true, false} {
		name := "echo off"
		if echoes {
			name = "echoing"
		}
		t.Run(name, func(t *testing.T) {
			agent, err := conductor.CreateAgent(baseConfig("scripted"), conductor.Deps{Model: conductor.Model{Provider: scripted.New()}})
			if err != nil {
				t.Fatal(err)
			}
			defer agent.Close()
			stdout, stderr := newSyncBuffer(), newSyncBuffer()
			a := &app{stdout: stdout, stderr: stderr}
			if !echoes {
				a.echoOff = func() func() { return func() {} }
			}
			lines := make(chan string, 1)
			con := &console{prompts: stderr, lines: lines}
			p := newPrinter(stdout, true, false)
			defer p.close()
			a.attachConsole(context.Background(), con, p, agent)
			defer con.detach()
			lines <- "also mention the notes"
			stderr.waitFor(t, "baton: steer: "+conductor.ErrNoRun.Error())
			if strings.Contains(stdout.String(), "steer") {
				t.Errorf("stdout, the JSON stream, holds the steering's error:\n%s", stdout.String())
			}
		})
	}
}
