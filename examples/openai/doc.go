// Openai runs an agent on a real model through the OpenAI provider, or
// any OpenAI-compatible server (set OPENAI_BASE_URL, e.g. Ollama's
// http://localhost:11434/v1, and OPENAI_MODEL). Without OPENAI_API_KEY or
// OPENAI_BASE_URL it prints why it skipped and exits 0.
package main
