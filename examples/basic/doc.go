// Basic runs an agent with one typed tool on a scripted model and streams
// the answer as it arrives.
package main
