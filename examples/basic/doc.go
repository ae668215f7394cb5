// Basic runs an agent with one typed tool on a scripted model, prints
// each tool call and result as they happen, then the answer.
package main
