import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonArrayStream } from './json-array-stream.js';

async function read(stream: NodeJS.ReadableStream): Promise<{ text: string; chunks: number }> {
  let text = '';
  let chunks = 0;
  for await (const chunk of stream) {
    text += String(chunk);
    chunks++;
  }
  return { text, chunks };
}

describe('jsonArrayStream', () => {
  it('streams exactly the JSON array of the elements', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue()), async (values) => {
        const { text } = await read(jsonArrayStream(values.map((v) => JSON.stringify(v))));
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(values)));
      }),
    );
  });

  it('sends a large answer in many chunks of about 64 KB', async () => {
    const element = JSON.stringify({ text: 'x'.repeat(580) });
    const { text, chunks } = await read(jsonArrayStream(Array.from({ length: 5_000 }, () => element)));
    expect(JSON.parse(text)).toHaveLength(5_000);
    expect(chunks).toBeGreaterThanOrEqual(Math.floor(text.length / (64 * 1024)));
    expect(chunks).toBeLessThanOrEqual(Math.ceil(text.length / (64 * 1024)) + 1);
  });

  it('answers [] for no elements', async () => {
    expect((await read(jsonArrayStream([]))).text).toBe('[]');
  });
});
