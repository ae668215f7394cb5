package endpoint_test

import (
	"fmt"
	"os"

	"github.com/batonrt/baton/turn/endpoint"
)

// Option stands for a provider's own exported Option type.
type Option func(*endpoint.Settings)

// ExampleResolve shows a provider's New: defaults, then options.
func ExampleResolve() {
	s := endpoint.Resolve("https://api.example.com/", []Option{Option(endpoint.APIKey("k"))})
	fmt.Println(s.BaseURL, s.APIKey)
	// Output:
	// https://api.example.com/ k
}

// ExampleFromEnv shows a provider's NewFromEnv: the environment first,
// options given in code after it.
func ExampleFromEnv() {
	os.Setenv("EXAMPLE_BASE_URL", "http://localhost:11434/v1")
	defer os.Unsetenv("EXAMPLE_BASE_URL")
	opts := endpoint.FromEnv("EXAMPLE_BASE_URL", "EXAMPLE_API_KEY", []Option{Option(endpoint.APIKey("k"))})
	s := endpoint.Resolve("https://api.example.com/", opts)
	fmt.Println(s.BaseURL, s.APIKey)
	// Output:
	// http://localhost:11434/v1 k
}
