import type { Knex } from "knex";
import { NotFound, ValidationError, fullMessage } from "../../../errors";
import type { AppContext } from "../../../http/context";
import { headOk } from "../../../http/headOk";
import { type ApiRouter, UPDATE } from "../../../http/router";
import { accountParams, accountResourceParams, pageQuery } from "../../../http/schemas";
import { definedOnly } from "../../../lib/objects";
import { AutomationRule, type AutomationRuleAttributes } from "../../../models/AutomationRule";
import { requireAdministrator } from "../../../policies";
import { presentAutomationRule } from "../../../presenters/automationRule";
import { auditActor, auditChange } from "../../../services/audit";
import { automationRuleBody, automationRuleEnvelope, automationRulesEnvelope, automationRuleResponse } from "./schema";

/** Every column but id and timestamps, as the audited gem records them. */
const ATTRIBUTES = ["account_id", "name", "description", "event_name", "conditions", "actions", "active"] as const;
const PER_PAGE = 25;

/** The account's rule; inside a transaction it is locked, so the audited "before" is what the change replaced. */
async function findRule(ctx: AppContext, id: number, trx?: Knex): Promise<AutomationRule> {
  const query = AutomationRule.query(trx).findOne({ id, account_id: ctx.state.account!.id });
  const rule = await (trx ? query.forUpdate() : query);
  if (!rule) throw NotFound();
  return rule;
}

function audit(ctx: AppContext, trx: Knex, before: AutomationRule | undefined, after: AutomationRule | undefined) {
  return auditChange(trx, auditActor(ctx), { accountId: ctx.state.account!.id, auditableType: "AutomationRule", keys: ATTRIBUTES, before, after });
}

/** Create and clone: the row and its audit entry commit together. */
async function insertRule(ctx: AppContext, attributes: Partial<AutomationRuleAttributes>): Promise<AutomationRule> {
  return AutomationRule.transaction(async (trx) => {
    const created = await AutomationRule.query(trx)
      .insert({ ...attributes, account_id: ctx.state.account!.id })
      .returning("*");
    await audit(ctx, trx, undefined, created);
    return created;
  });
}

export function registerAutomationRuleRoutes(router: ApiRouter) {
  const path = "/accounts/:account_id/automation_rules";

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path,
      summary: "List automation rules, 25 a page",
      params: accountParams,
      query: pageQuery,
      response: automationRulesEnvelope,
    },
    async (ctx, { query }) => {
      const rules = await AutomationRule.query()
        .where("account_id", ctx.state.account!.id)
        .orderBy("id")
        .limit(PER_PAGE)
        .offset((query.page - 1) * PER_PAGE);
      ctx.body = { payload: rules.map(presentAutomationRule) };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "get",
      path: `${path}/:id`,
      summary: "Get an automation rule",
      params: accountResourceParams,
      response: automationRuleEnvelope,
    },
    async (ctx, { params }) => {
      ctx.body = { payload: presentAutomationRule(await findRule(ctx, params.id)) };
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path,
      summary: "Create an automation rule",
      params: accountParams,
      body: automationRuleBody,
      response: automationRuleResponse,
    },
    async (ctx, { body }) => {
      const attributes = await AutomationRule.validate(ctx.state.account!.id, definedOnly(body));
      ctx.body = presentAutomationRule(await insertRule(ctx, attributes));
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: UPDATE,
      path: `${path}/:id`,
      summary: "Update an automation rule",
      params: accountResourceParams,
      body: automationRuleBody,
      response: automationRuleEnvelope,
    },
    async (ctx, { params, body }) => {
      const updated = await AutomationRule.transaction(async (trx) => {
        const rule = await findRule(ctx, params.id, trx);
        const changes = await AutomationRule.validate(rule.account_id, definedOnly(body), rule, trx);
        const after = await AutomationRule.query(trx).patchAndFetchById(rule.id, changes);
        await audit(ctx, trx, rule, after);
        return after;
      });
      ctx.body = { payload: presentAutomationRule(updated) };
    },
  );

  router.route(
    { authorize: requireAdministrator, method: "delete", path: `${path}/:id`, summary: "Delete an automation rule", params: accountResourceParams },
    async (ctx, { params }) => {
      await AutomationRule.transaction(async (trx) => {
        const rule = await findRule(ctx, params.id, trx);
        await AutomationRule.query(trx).deleteById(rule.id);
        await audit(ctx, trx, rule, undefined);
      });
      headOk(ctx);
    },
  );

  router.route(
    {
      authorize: requireAdministrator,
      method: "post",
      path: `${path}/:id/clone`,
      summary: "Copy an automation rule",
      params: accountResourceParams,
      response: automationRuleEnvelope,
    },
    async (ctx, { params }) => {
      const original = await findRule(ctx, params.id);
      const copy: AutomationRuleAttributes = {
        name: original.name,
        description: original.description,
        event_name: original.event_name,
        conditions: original.conditions,
        actions: original.actions,
        active: original.active,
      };
      // Chatwoot saves the copy with save!, so a rule that no longer validates (its custom attribute
      // was deleted since) answers as RecordInvalid does, not in the automation-rule shape.
      const errors = await AutomationRule.errorsOf(original.account_id, copy);
      if (Object.keys(errors).length) {
        throw new ValidationError(
          Object.entries(errors).flatMap(([attribute, texts]) => texts.map((text) => ({ attribute, message: fullMessage(attribute, text) }))),
        );
      }
      ctx.body = { payload: presentAutomationRule(await insertRule(ctx, copy)) };
    },
  );
}
