// Package endpoint holds the settings every HTTP provider takes (base URL,
// API key, HTTP client), the option functions that set them, and their
// defaults and environment variables, so that each provider keeps its own
// exported Option type over one implementation. It imports nothing of ours.
package endpoint
