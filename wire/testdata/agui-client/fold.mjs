// Rebuilds messages from UI message stream chunks with the AI SDK's own
// stream reader, for the Go test that checks aisdk.Messages against it.
// Reads a JSON array of streams (each an array of chunks, one message)
// on stdin; prints the message each stream built, as a JSON array. An
// error chunk is the chat's error, not the message's, and is left out.
//
//   node fold.mjs < streams.json
import { readUIMessageStream } from "ai";

let input = "";
for await (const b of process.stdin) input += b;
const messages = [];
for (const chunks of JSON.parse(input)) {
  const stream = new ReadableStream({
    start(c) {
      chunks.forEach((chunk) => c.enqueue(chunk));
      c.close();
    },
  });
  let message;
  for await (const m of readUIMessageStream({ stream, onError: () => {} })) message = m;
  messages.push(message);
}
process.stdout.write(JSON.stringify(messages) + "\n");
