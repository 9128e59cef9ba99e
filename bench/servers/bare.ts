/**
 * The baseline the API is measured against: a bare Koa route doing one indexed PostgreSQL query on
 * the same database, with the same pool size as the service; and the same with a page of the
 * service's as its answer, the floor of a route that writes that page. Run as a process of its own by
 * bench/load.ts; prints its port on stdout.
 */
import Router from "@koa/router";
import Koa from "koa";
import { text } from "node:stream/consumers";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const router = new Router();

router.get("/contacts/:id", async (ctx) => {
  const { rows } = await pool.query("SELECT * FROM contacts WHERE id = $1", [Number(ctx.params.id)]);
  ctx.body = rows[0];
});

/** What GET /page answers, as PUT /page gave it: a page of the service's, parsed, to be written as JSON again. */
let page: unknown = {};

router.put("/page", async (ctx) => {
  page = JSON.parse(await text(ctx.req));
  ctx.status = 204;
});

/** The floor of any read that answers that page: one indexed select, then the page written as JSON. */
router.get("/page", async (ctx) => {
  await pool.query("SELECT * FROM contacts WHERE id = $1", [Number(ctx.query.contact_id)]);
  // As the service writes a JSON body (src/middlewares/jsonBody.ts).
  ctx.type = "json";
  ctx.body = Buffer.from(JSON.stringify(page));
});

/** One insert, the floor of any write path. */
router.post("/bench_rows", async (ctx) => {
  const { rows } = await pool.query("INSERT INTO bench_rows (content) VALUES ($1) RETURNING *", [`row ${Date.now()}`]);
  ctx.body = rows[0];
});

async function main() {
  await pool.query("CREATE TABLE IF NOT EXISTS bench_rows (id bigserial PRIMARY KEY, content text, created_at timestamptz NOT NULL DEFAULT now())");
  const app = new Koa();
  app.use(router.routes());
  const server = app.listen(0, "127.0.0.1", () => {
    const address = server.address();
    console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
  });
}

// A normal exit, so --cpu-prof writes its profile.
process.on("SIGINT", () => process.exit(0));
void main();
