// Package endpoint holds what every HTTP provider takes and does alike:
// the options a host gives (base URL, API key, HTTP client), their
// defaults and environment variables, and the request options of the
// provider's SDK built from them. A provider declares its SDK's option
// constructors once, and its New makes the SDK's client in one call:
//
//	var sdkOptions = endpoint.SDK[option.RequestOption]{BaseURL: option.WithBaseURL, ...}
//
//	func New(opts ...endpoint.Option) *Provider {
//		client := sdk.NewClient(sdkOptions.Resolve(DefaultBaseURL, opts)...)
//		...
//	}
//
// It imports nothing of ours.
package endpoint
