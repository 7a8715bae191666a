import { describe, expect, it } from 'vitest';
import { ndjsonValues } from './ndjson.ts';

/** A body that arrives in the given chunks, split wherever the test says. */
function bodyOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const value of ndjsonValues(body)) values.push(value);
  return values;
}

describe('ndjsonValues', () => {
  it('yields one value per line, however the chunks split the lines', async () => {
    expect(
      await collect(
        bodyOf('{"progress":{"done":1,', '"total":2}}\n{"pro', 'gress":{"done":2,"total":2}}\n'),
      ),
    ).toEqual([{ progress: { done: 1, total: 2 } }, { progress: { done: 2, total: 2 } }]);
  });

  it('reads a last line without a newline and skips blank lines', async () => {
    expect(await collect(bodyOf('{"a":1}\n\n  \n{"result":{"b":2}}'))).toEqual([
      { a: 1 },
      { result: { b: 2 } },
    ]);
  });

  it('keeps a character split across chunks whole', async () => {
    const bytes = new TextEncoder().encode('{"name":"é"}\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 10));
        controller.enqueue(bytes.slice(10));
        controller.close();
      },
    });
    expect(await collect(body)).toEqual([{ name: 'é' }]);
  });

  it('throws on a line that is not JSON', async () => {
    await expect(collect(bodyOf('{"a":1}\nnot json\n'))).rejects.toThrow(SyntaxError);
  });
});
