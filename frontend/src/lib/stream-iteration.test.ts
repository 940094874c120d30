import { describe, expect, it } from "vitest";
import { installStreamIteration, streamValues } from "./stream-iteration";

const values: (this: ReadableStream<number>) => AsyncGenerator<number> = streamValues;

function stream(chunks: number[], onCancel: () => void = () => {}): ReadableStream<number> {
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
    cancel: onCancel,
  });
}

describe("streamValues", () => {
  it("yields every chunk and releases the stream", async () => {
    const s = stream([1, 2, 3]);
    const got: number[] = [];
    for await (const v of values.call(s)) got.push(v);
    expect(got).toEqual([1, 2, 3]);
    expect(s.locked).toBe(false);
  });

  it("cancels the stream when the loop exits early", async () => {
    let cancelled = false;
    const s = new ReadableStream<number>({
      pull(c) {
        c.enqueue(1);
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const v of values.call(s)) {
      expect(v).toBe(1);
      break;
    }
    expect(cancelled).toBe(true);
    expect(s.locked).toBe(false);
  });
});

describe("installStreamIteration", () => {
  it("adds async iteration to a prototype without it", async () => {
    class Bare {
      constructor(private readonly inner: ReadableStream<number>) {}
      getReader() {
        return this.inner.getReader();
      }
    }
    expect(installStreamIteration(Bare.prototype)).toBe(true);
    const got: number[] = [];
    for await (const v of new Bare(stream([4, 5])) as unknown as AsyncIterable<number>) got.push(v);
    expect(got).toEqual([4, 5]);
    expect(typeof (Bare.prototype as unknown as { values: unknown }).values).toBe("function");
  });

  it("leaves a native implementation alone", () => {
    expect(installStreamIteration(ReadableStream.prototype)).toBe(false);
  });
});
