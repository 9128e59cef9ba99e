import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { stringify } from "csv-stringify/sync";
import { fileStorage } from "../storage";

/**
 * Writes a CSV of many rows to storage under `key` without holding them all: the pages go to a
 * temporary file one at a time, and the finished file is stored. Answers the rows written.
 */
export async function storeCsv(key: string, header: string[], pages: AsyncIterable<unknown[][]>): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "convo-csv-"));
  try {
    const file = path.join(dir, "data.csv");
    const out = createWriteStream(file);
    let rows = 0;
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, "drain");
    };
    await write(stringify([header]));
    for await (const page of pages) {
      if (!page.length) continue;
      await write(stringify(page));
      rows += page.length;
    }
    out.end();
    await once(out, "finish");
    await fileStorage().put(key, { path: file }, "text/csv");
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
