// Folds AG-UI streams into a message list with the official client, as
// an agent that follows them one after another: each stream is a run
// of the agent, given the messages the streams before it left. Reads
// {"messages": [...], "streams": [[event, ...], ...]} on stdin; prints
// {"messages": [...], "errors": [...]}: the client's messages after the
// last stream and what it complained of (a stream that ends without
// RUN_FINISHED, cut, is not a complaint).
//
//   node apply.mjs < input.json
import { AbstractAgent } from "@ag-ui/client";
import { Observable } from "rxjs";

class Replay extends AbstractAgent {
  constructor(config, events) {
    super(config);
    this.events = events;
  }
  run() {
    return new Observable((sub) => {
      for (const e of this.events) sub.next(e);
      sub.complete();
    });
  }
}

let input = "";
for await (const b of process.stdin) input += b;
const { messages: initial, streams } = JSON.parse(input);
let messages = initial;
const errors = [];
for (const events of streams) {
  const agent = new Replay({ threadId: "t", initialMessages: messages }, events);
  const finished = events.some((e) => e.type === "RUN_FINISHED" || e.type === "RUN_ERROR");
  try {
    await agent.runAgent({}, { onRunErrorEvent: ({ event }) => errors.push(event.message) });
  } catch (err) {
    if (finished) errors.push(String(err));
  }
  messages = agent.messages;
}
process.stdout.write(JSON.stringify({ messages, errors }) + "\n");
