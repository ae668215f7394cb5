package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/batonrt/baton/contract"
)

// outputFlag reads --output-schema FILE: a JSON Schema the final answer
// must match, named after the file.
type outputFlag struct{ schema *contract.OutputSchema }

const outputFlagHelp = "JSON Schema file the final answer must match; a bad answer goes back to the model, twice at most"

func (f *outputFlag) String() string { return "" }

func (f *outputFlag) Set(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !json.Valid(b) {
		return fmt.Errorf("%s is not JSON", path)
	}
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, name)
	if len(name) > 64 {
		name = name[:64]
	}
	schema := &contract.OutputSchema{Name: name, Schema: b}
	// A schema the agent would refuse is a bad command line, as a file
	// that is not JSON is, found before any session is started.
	cfg := contract.AgentConfig{Output: schema}
	if re, ok := contract.AsRunError(cfg.Validate()); ok {
		for _, fe := range re.Fields {
			if strings.HasPrefix(fe.Field, "Output.") {
				return fmt.Errorf("%s: %s %s", path, strings.TrimPrefix(fe.Field, "Output."), fe.Reason)
			}
		}
	}
	f.schema = schema
	return nil
}
