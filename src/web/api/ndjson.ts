/**
 * The values of a newline-delimited JSON body, one per line as each line arrives; blank lines
 * are skipped. A line that is not JSON throws a SyntaxError.
 */
export async function* ndjsonValues(body: ReadableStream<Uint8Array>): AsyncGenerator<unknown> {
  const reader = body.getReader();
  // Streaming decode keeps a character whose bytes are split across chunks whole.
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = pending.slice(0, end).trim();
        pending = pending.slice(end + 1);
        if (line !== '') yield JSON.parse(line) as unknown;
        end = pending.indexOf('\n');
      }
    }
    const last = (pending + decoder.decode()).trim();
    if (last !== '') yield JSON.parse(last) as unknown;
  } finally {
    reader.releaseLock();
  }
}
