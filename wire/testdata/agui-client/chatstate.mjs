// chatState is the state an AI SDK AbstractChat keeps its messages in,
// as a page's framework binding would: plain arrays, replaced on change.
export function chatState(messages = []) {
  return {
    messages,
    status: "ready",
    error: undefined,
    pushMessage(m) {
      this.messages = this.messages.concat(m);
    },
    popMessage() {
      this.messages = this.messages.slice(0, -1);
    },
    replaceMessage(i, m) {
      this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)];
    },
    snapshot: (v) => structuredClone(v),
  };
}
