/**
 * Large buffers kept for reuse. A fresh buffer of megabytes costs the first touch of every one of its
 * pages (a page fault each), and the allocator hands such buffers back to the system when they are
 * freed, so a response written into a new one pays that again every time, and the calendar's month
 * view writes megabytes a request (the measurements are in bench/HISTORY.md).
 *
 * Only buffers this pool handed out come back to it (release of anything else does nothing), and
 * only once whoever held them is done: what a released buffer held may be written over at once.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  /** The backing stores of the buffers handed out and not yet back: nothing else is ever pooled. */
  private readonly out = new WeakSet<ArrayBufferLike>();

  constructor(
    /** Buffers kept at most; the least recently released goes first. */
    private readonly keep = 2,
    /** A buffer larger than this is made for its one use and never kept. */
    private readonly largest = 16 * 1024 * 1024,
  ) {}

  /** A buffer of at least `size` bytes (what it held before is still in it). */
  take(size: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const length = this.free[i]!.length;
      if (length >= size && (best < 0 || length < this.free[best]!.length)) best = i;
    }
    // Sizes rounded up to a mebibyte, so that requests of a similar size find each other's buffers.
    const buffer = best >= 0 ? this.free.splice(best, 1)[0]! : Buffer.allocUnsafeSlow(Math.ceil(Math.max(size, 1) / MIB) * MIB);
    this.out.add(buffer.buffer);
    return buffer;
  }

  /** Gives back the buffer that `view` (the buffer or a part of it) came from; its holder is done with it. */
  release(view: Uint8Array): void {
    const store = view.buffer;
    if (!this.out.delete(store)) return;
    if (store.byteLength > this.largest) return;
    this.free.push(Buffer.from(store, 0, store.byteLength));
    if (this.free.length > this.keep) this.free.shift();
  }
}

const MIB = 1024 * 1024;

/**
 * Buffers of response bodies written as bytes (see JsonBytes), given back once the response has gone
 * out: at most two of up to 16 MiB stay with the process (a month's calendar of 20 resources is 5 MB).
 */
export const bodyBuffers = new BufferPool();
