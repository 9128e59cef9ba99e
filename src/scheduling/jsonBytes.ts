import { bodyBuffers } from "../lib/bufferPool";

/**
 * JSON text written piece by piece straight into one growing UTF-8 buffer: a response of thousands
 * of rows is written without a string per row or per value, and without joining them afterwards.
 * The buffer comes from bodyBuffers: whoever sends what done() gives releases it once it has gone out.
 */
export class JsonBytes {
  bytes: Buffer;
  /** Where the next byte goes. */
  at = 0;

  constructor(size: number) {
    this.bytes = bodyBuffers.take(size);
  }

  /** Makes room for `count` more bytes. */
  room(count: number): void {
    if (this.at + count <= this.bytes.length) return;
    const bytes = bodyBuffers.take(Math.max(this.bytes.length * 2, this.at + count));
    this.bytes.copy(bytes, 0, 0, this.at);
    bodyBuffers.release(this.bytes);
    this.bytes = bytes;
  }

  /** Text known to be ASCII (keys, punctuation, numbers, ISO instants). */
  ascii(text: string): void {
    this.room(text.length);
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** Any text, as UTF-8. */
  text(text: string): void {
    // A UTF-16 unit is at most three bytes of UTF-8.
    this.room(text.length * 3);
    this.at += this.bytes.write(text, this.at, "utf8");
  }

  /** The text written so far (a view of the buffer). */
  done(): Buffer {
    return this.bytes.subarray(0, this.at);
  }
}
