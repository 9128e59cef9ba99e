import type { Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import test from "ava";
import Koa from "koa";
import type { AppContext } from "../../src/http/context";
import { BufferPool } from "../../src/lib/bufferPool";
import { okJson } from "../../src/routes/api/scheduling/respond";
import { JsonBytes } from "../../src/scheduling/jsonBytes";

const MIB = 1024 * 1024;
/** More than the kernel's socket buffers hold, so a client that reads nothing leaves most of it unsent. */
const BODY = 12 * MIB;

test("a released buffer is taken again, the smallest that fits first, in sizes rounded up to a mebibyte", (t) => {
  const pool = new BufferPool(4);
  const small = pool.take(1.5 * MIB);
  const large = pool.take(7 * MIB);
  t.is(small.length, 2 * MIB);
  t.is(large.length, 7 * MIB);
  pool.release(large.subarray(0, 10));
  pool.release(small.subarray(5, 100));
  t.is(pool.take(MIB).buffer, small.buffer, "the 2 MiB buffer fits 1 MiB best");
  t.is(pool.take(3 * MIB).buffer, large.buffer);
  t.not(pool.take(MIB).buffer, small.buffer, "taken buffers are not handed out twice");
});

test("only the pool's own buffers come back, once each, and it keeps a bounded number of bounded size", (t) => {
  const pool = new BufferPool(2, 4 * MIB);
  const foreign = Buffer.allocUnsafeSlow(MIB);
  pool.release(foreign);
  t.not(pool.take(MIB).buffer, foreign.buffer, "a buffer the pool did not hand out is never pooled");

  const twice = pool.take(MIB);
  pool.release(twice);
  pool.release(twice);
  t.is(pool.take(MIB).buffer, twice.buffer);
  t.not(pool.take(MIB).buffer, twice.buffer, "a second release of the same buffer adds nothing");

  const [a, b, c] = [pool.take(MIB), pool.take(MIB), pool.take(MIB)];
  for (const buffer of [a, b, c]) pool.release(buffer);
  const kept = [pool.take(MIB).buffer, pool.take(MIB).buffer, pool.take(MIB).buffer];
  t.true(kept.includes(b.buffer) && kept.includes(c.buffer), "the two most recently released are kept");
  t.false(kept.includes(a.buffer), "the oldest is dropped");

  const huge = pool.take(5 * MIB);
  pool.release(huge);
  t.not(pool.take(5 * MIB).buffer, huge.buffer, "a buffer over the size limit is not kept");
});

/** A server answering GET /?fill=<letter> with a JSON string of 12 MiB of that letter, written by JsonBytes and sent by okJson. */
async function fillServer(finished: Map<string, boolean>): Promise<{ server: Server; port: number }> {
  const app = new Koa();
  app.use((ctx) => {
    const letter = String(ctx.query.fill);
    const into = new JsonBytes(BODY + 2);
    into.ascii('"');
    into.bytes.fill(letter, into.at, into.at + BODY);
    into.at += BODY;
    into.ascii('"');
    finished.set(letter, false);
    ctx.res.once("finish", () => finished.set(letter, true));
    okJson(ctx as unknown as AppContext, into.done());
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

test("a body's buffer is not written over while a slow client is still being sent it", async (t) => {
  const finished = new Map<string, boolean>();
  const { server, port } = await fillServer(finished);
  try {
    // The slow client asks, then reads nothing until the others have been answered in full.
    const slow = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    slow.on("data", (chunk: Buffer) => chunks.push(chunk));
    slow.pause();
    slow.write("GET /?fill=a HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    const ended = new Promise((resolve) => slow.once("end", resolve));
    while (!finished.has("a")) await new Promise((resolve) => setTimeout(resolve, 10));

    for (const letter of ["b", "c", "d"]) {
      const body = await (await fetch(`http://127.0.0.1:${port}/?fill=${letter}`)).text();
      t.is(body.length, BODY + 2);
      t.is(body.replaceAll(letter, ""), '""', `${letter}: every byte its own`);
    }
    // Otherwise the test shows nothing: the kernel would hold all of the slow client's body already.
    t.false(finished.get("a"), "the slow client's response is still being sent");

    slow.resume();
    await ended;
    const response = Buffer.concat(chunks).toString("latin1");
    const body = response.slice(response.indexOf("\r\n\r\n") + 4);
    t.is(body.length, BODY + 2);
    t.is(body.replaceAll("a", ""), '""', "the slow client got its own bytes, none of the later responses'");
    t.true(finished.get("a"));
  } finally {
    server.close();
  }
});
