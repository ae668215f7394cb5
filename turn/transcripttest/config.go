package transcripttest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// ConfigCase is an agent config and the fields a ConfigChecker must name
// for it, in order; none for a config the API takes.
type ConfigCase struct {
	Name   string
	Config contract.AgentConfig
	Fields []string
}

// CheckConfig checks the fields c names for each case's config.
func CheckConfig(t *testing.T, c turn.ConfigChecker, cases []ConfigCase) {
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			var got []string
			for _, f := range c.CheckConfig(tt.Config) {
				got = append(got, f.Field)
			}
			if diff := cmp.Diff(tt.Fields, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
