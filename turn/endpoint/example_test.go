package endpoint_test

import (
	"fmt"
	"net/http"
	"os"

	"github.com/batonrt/baton/turn/endpoint"
)

// ExampleResolve shows a provider's New: defaults, then options.
func ExampleResolve() {
	s := endpoint.Resolve("https://api.example.com/", []endpoint.Option{endpoint.APIKey("k")})
	fmt.Println(s.BaseURL, s.APIKey)
	// Output:
	// https://api.example.com/ k
}

// ExampleFromEnv shows a provider's NewFromEnv: the environment first,
// options given in code after it.
func ExampleFromEnv() {
	os.Setenv("EXAMPLE_BASE_URL", "http://localhost:11434/v1")
	defer os.Unsetenv("EXAMPLE_BASE_URL")
	opts := endpoint.FromEnv("EXAMPLE_BASE_URL", "EXAMPLE_API_KEY", []endpoint.Option{endpoint.APIKey("k")})
	s := endpoint.Resolve("https://api.example.com/", opts)
	fmt.Println(s.BaseURL, s.APIKey)
	// Output:
	// http://localhost:11434/v1 k
}

// ExampleSDK shows a provider's New over an SDK whose request options are
// here plain strings: the SDK's own retries are switched off, and the
// key, when there is one, is sent as the API expects.
func ExampleSDK() {
	sdkOptions := endpoint.SDK[string]{
		BaseURL:    func(url string) string { return "base " + url },
		HTTPClient: func(c *http.Client) string { return "client" },
		APIKey:     func(key string) string { return "x-api-key " + key },
		NoRetries:  "max retries 0",
	}
	fmt.Println(sdkOptions.Resolve("https://api.example.com/", []endpoint.Option{endpoint.APIKey("k")}))
	// Output:
	// [base https://api.example.com/ client max retries 0 x-api-key k]
}
