import { NotFound, ValidationError, type AttributeError, fullMessage } from "../errors";
import { DashboardApp, type DashboardAppFrame } from "../models/DashboardApp";

export interface DashboardAppInput {
  title?: string | null;
  content?: unknown;
}

const HTTP_URL = /^https?:\/\/\S+$/i;

/** DashboardApp's validations: a title, and content a non-empty list of frames with http(s) URLs ("Content : Invalid data"). */
function validate(app: DashboardAppInput): asserts app is { title: string; content: DashboardAppFrame[] } {
  const errors: AttributeError[] = [];
  if (!app.title?.trim()) errors.push({ attribute: "title", message: fullMessage("title", "can't be blank") });
  const frames = app.content;
  const valid =
    Array.isArray(frames) &&
    frames.length > 0 &&
    frames.every((f) => f && typeof f === "object" && (f as DashboardAppFrame).type === "frame" && HTTP_URL.test(String((f as DashboardAppFrame).url ?? "")));
  if (!valid) errors.push({ attribute: "content", message: fullMessage("content", ": Invalid data") });
  if (errors.length) throw new ValidationError(errors);
}

export async function listDashboardApps(accountId: number): Promise<DashboardApp[]> {
  return DashboardApp.query().where("account_id", accountId).orderBy("id");
}

export async function findDashboardApp(accountId: number, id: number): Promise<DashboardApp> {
  const app = await DashboardApp.query().findOne({ account_id: accountId, id });
  if (!app) throw NotFound();
  return app;
}

export async function createDashboardApp(accountId: number, userId: number, input: DashboardAppInput): Promise<DashboardApp> {
  validate(input);
  return DashboardApp.query().insert({ account_id: accountId, user_id: userId, title: input.title, content: input.content }).returning("*");
}

export async function updateDashboardApp(accountId: number, id: number, input: DashboardAppInput): Promise<DashboardApp> {
  return DashboardApp.transaction(async (trx) => {
    const current = await DashboardApp.lockInAccount(trx, accountId, id);
    const next = { title: input.title === undefined ? current.title : input.title, content: input.content === undefined ? current.content : input.content };
    validate(next);
    return DashboardApp.query(trx).patchAndFetchById(id, next);
  });
}

export async function destroyDashboardApp(accountId: number, id: number): Promise<void> {
  const deleted = await DashboardApp.query().delete().where({ account_id: accountId, id });
  if (!deleted) throw NotFound();
}
