import { createInbox } from "../support/conversationFactories";
import { createAccount, type TestAccount } from "../support/factories";
import { expectOk, type Harness } from "../support/harness";

export interface CampaignWorld {
  account: TestAccount;
  api: { id: number };
  website: { id: number };
  vip: { id: number };
  base: string;
}

/** An account with an API inbox, a website inbox and a `vip` label; `count` contacts carry the label. */
export async function campaignWorld(h: Harness, count = 0): Promise<CampaignWorld> {
  const account = await createAccount(h);
  const api = await createInbox(h, account, { name: "Texts" });
  const website = await createInbox(h, account, { name: "Site", channel: { type: "web_widget", website_url: "https://shop.example" } });
  const base = `/api/v1/accounts/${account.id}`;
  const vip = await expectOk(h.request("POST", `${base}/labels`, { token: account.admin.token, body: { title: "vip" } }), "label");
  if (count) {
    const rows = Array.from({ length: count }, (_, i) => ({ account_id: account.id, name: `Contact ${i}`, labels: ["vip"] }));
    await h.knex("contacts").insert(rows);
    // Contacts outside the audience are never messaged.
    await h.knex("contacts").insert([{ account_id: account.id, name: "Not VIP", labels: ["other"] }]);
  }
  return { account, api, website, vip, base };
}
