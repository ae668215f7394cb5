package main

import (
	"fmt"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// runConfig is what the flags run and serve share set of a run's agent
// config, beyond the model: its system prompt, its cap on model calls,
// its temperature and the model's context size.
type runConfig struct {
	maxTurns int
	// temperature, when set, is each run's sampling temperature; unset
	// leaves the provider's default, which a zero could not tell from a
	// temperature of 0.
	temperature   temperatureFlag
	contextWindow int
	// system, when not empty, replaces the command line's system prompt;
	// check reads systemFile into it.
	system, systemFile string
}

// addRunConfigFlags adds --system, --system-file, --max-turns,
// --temperature and --context-window.
func addRunConfigFlags(fs *flagSet) *runConfig {
	rc := &runConfig{}
	fs.StringVar(&rc.system, "system", "", "system prompt `TEXT` of each run, instead of baton's own")
	fs.StringVar(&rc.systemFile, "system-file", "", "`FILE` whose text is the system prompt, as --system")
	fs.IntVar(&rc.maxTurns, "max-turns", contract.DefaultMaxTurns, "most model calls a run makes; at the cap it fails with max_turns")
	fs.Var(&rc.temperature, "temperature", "sampling temperature `N`, from 0 to 2 (default the provider's)")
	// The default is written out, not left to the agent's zero, so that
	// the help shows it and 0 is refused as any other size below 1.
	fs.IntVar(&rc.contextWindow, "context-window", contract.DefaultContextWindow, "the model's context size in tokens; history is compacted near it")
	return rc
}

// check refuses a cap or a context size CreateAgent would, as a usage
// error of command, and reads --system-file.
func (rc *runConfig) check(command string) error {
	if rc.maxTurns < 1 || rc.maxTurns > contract.MaxMaxTurns {
		return fmt.Errorf("%s: --max-turns must be from 1 to %d, got %d", command, contract.MaxMaxTurns, rc.maxTurns)
	}
	if rc.contextWindow < 1 {
		return fmt.Errorf("%s: --context-window must be positive, got %d", command, rc.contextWindow)
	}
	if rc.systemFile != "" {
		if rc.system != "" {
			return fmt.Errorf("%s: --system and --system-file: give one", command)
		}
		b, err := os.ReadFile(rc.systemFile)
		if err != nil {
			return fmt.Errorf("%s: --system-file: %w", command, err)
		}
		if len(b) == 0 {
			// An empty file is more likely a mistake than a wish for
			// no system prompt at all.
			return fmt.Errorf("%s: --system-file %s is empty", command, rc.systemFile)
		}
		rc.system = string(b)
	}
	if !utf8.ValidString(rc.system) {
		// The prompt is recorded as JSON text, which would not keep
		// the bytes as given.
		return fmt.Errorf("%s: the system prompt is not UTF-8 text", command)
	}
	return nil
}

// apply sets what the flags say in cfg.
func (rc runConfig) apply(cfg *contract.AgentConfig) {
	if rc.system != "" {
		cfg.System = rc.system
	}
	cfg.MaxTurns = rc.maxTurns
	cfg.Sampling.Temperature = rc.temperature.v
	cfg.Compaction.ContextWindow = rc.contextWindow
}

// temperatureFlag is --temperature's value.
type temperatureFlag struct{ v *float64 }

func (f *temperatureFlag) String() string {
	if f == nil || f.v == nil {
		return ""
	}
	return strconv.FormatFloat(*f.v, 'g', -1, 64)
}

func (f *temperatureFlag) Set(s string) error {
	t, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("want a number from 0 to 2")
	}
	// The range both providers take, which CreateAgent checks too.
	if !(t >= 0 && t <= 2) {
		return fmt.Errorf("must be from 0 to 2")
	}
	f.v = &t
	return nil
}
