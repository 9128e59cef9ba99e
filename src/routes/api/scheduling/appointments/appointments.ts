import type { AppContext } from "../../../../http/context";
import type { ApiRouter } from "../../../../http/router";
import { accountParams } from "../../../../http/schemas";
import { presentAppointment } from "../../../../presenters/scheduling/appointments";
import { type AppointmentView, findAppointmentView } from "../../../../scheduling/appointmentRecords";
import { cancelAppointment, createAppointment, listAppointments, updateAppointment } from "../../../../scheduling/appointments";
import { deleteAppointment } from "../../../../scheduling/deletion";
import { recordPayment } from "../../../../scheduling/finance";
import { cancelPayments, refund } from "../../../../scheduling/refunds";
import { requireAdministrator } from "../../../../policies";
import { refuseUnseenConversationOrInbox } from "../inboxAccess";
import { auditedForBot, botBooking, botMayChange, botOf, openToBots } from "../botAccess";
import { financeEnabled } from "../middleware";
import { booker } from "../booker";
import { created, ok, paged, removed } from "../respond";
import {
  appointmentCreate,
  appointmentPaymentParams,
  appointmentResponse,
  appointmentsQuery,
  appointmentUpdate,
  cancelBody,
  paymentBody,
  refundBody,
} from "./schema";
import { accountItemParams, one, pagedMany } from "../common";

export const presentView = (view: AppointmentView) => presentAppointment(view.appointment, view.payments, view.expense);

export function registerAppointmentRoutes(router: ApiRouter, base: string) {
  const path = `${base}/appointments`;
  const db = (ctx: AppContext) => ctx.deps.knex;

  router.route(
    {
      method: "get",
      path,
      summary: "List appointments starting in [from, to), filtered by resource_ids, status, payment_status (CSV) and contact_id; paginated",
      params: accountParams,
      query: appointmentsQuery,
      response: pagedMany(appointmentResponse),
    },
    async (ctx, { query }) => {
      const { page, per_page, ...filters } = query;
      const { views, count } = await listAppointments(db(ctx), ctx.state.account!.id, filters, { page, per_page });
      paged(ctx, views.map(presentView), count, { page, per_page });
    },
  );

  router.route(
    {
      method: "get",
      path: `${path}/:id`,
      summary: "Get an appointment with its payments and expense",
      params: accountItemParams,
      response: one(appointmentResponse),
    },
    async (ctx, { params }) => ok(ctx, presentView(await findAppointmentView(db(ctx), ctx.state.account!.id, params.id))),
  );

  router.route(
    {
      method: "post",
      path,
      summary: "Book an appointment (201); an idempotency_key already used returns that booking (200)",
      params: accountParams,
      body: appointmentCreate,
      response: one(appointmentResponse),
      status: 201,
      middleware: [openToBots],
    },
    async (ctx, { body }) => {
      const input = botOf(ctx) ? await botBooking(ctx, body) : body;
      await refuseUnseenConversationOrInbox(ctx, input);
      const { view, created: isNew } = await auditedForBot(
        ctx,
        "create",
        (knex) => createAppointment(knex, booker(ctx), input),
        (result) => (result.created ? result.view.appointment : undefined),
      );
      (isNew ? created : ok)(ctx, presentView(view));
    },
  );

  router.route(
    {
      method: "patch",
      path: `${path}/:id`,
      summary: "Change an appointment (reschedule, status, client, money)",
      params: accountItemParams,
      body: appointmentUpdate,
      response: one(appointmentResponse),
      middleware: [openToBots],
    },
    async (ctx, { params, body }) => {
      if (botOf(ctx)) await botMayChange(ctx, params.id, body);
      await refuseUnseenConversationOrInbox(ctx, body);
      const view = await auditedForBot(
        ctx,
        "update",
        (knex) => updateAppointment(knex, booker(ctx), params.id, body),
        (result) => result.appointment,
      );
      ok(ctx, presentView(view));
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/:id/cancel`,
      summary: "Cancel an appointment and its payment; the slot is free again",
      params: accountItemParams,
      body: cancelBody,
      response: one(appointmentResponse),
      middleware: [openToBots],
    },
    async (ctx, { params, body }) => {
      if (botOf(ctx)) await botMayChange(ctx, params.id, {});
      const view = await auditedForBot(
        ctx,
        "update",
        (knex) => cancelAppointment(knex, booker(ctx), params.id, body.cancellation_reason),
        (result) => result.appointment,
      );
      ok(ctx, presentView(view));
    },
  );

  router.route(
    {
      method: "delete",
      path: `${path}/:id`,
      summary: "Delete a cancelled appointment without money movements; posts the cancellation message it owed and emits appointment.deleted",
      params: accountItemParams,
      status: 204,
    },
    async (ctx, { params }) => {
      await deleteAppointment(db(ctx), ctx.state.account!, params.id);
      removed(ctx);
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/:appointment_id/payments`,
      summary: "Record a payment (amount defaults to the remaining balance)",
      params: appointmentPaymentParams,
      body: paymentBody,
      response: one(appointmentResponse),
      middleware: [financeEnabled],
    },
    async (ctx, { params, body }) => {
      const { user } = booker(ctx);
      ok(ctx, presentView(await recordPayment(db(ctx), ctx.state.account!, user?.id ?? null, params.appointment_id, body)));
    },
  );

  router.route(
    {
      method: "post",
      path: `${path}/:appointment_id/refunds`,
      summary: "Refund part or all of what was paid, as a refund entry of the payment journal (administrators only)",
      params: appointmentPaymentParams,
      body: refundBody,
      response: one(appointmentResponse),
      authorize: requireAdministrator,
      middleware: [financeEnabled],
    },
    async (ctx, { params, body }) => {
      const { user } = booker(ctx);
      ok(ctx, presentView(await refund(db(ctx), ctx.state.account!, user?.id ?? null, params.appointment_id, body)));
    },
  );

  router.route(
    {
      method: "delete",
      path: `${path}/:appointment_id/payments`,
      summary:
        "Cancel the payment (the fork's refund): a full refund entry for what is left, the payment cancelled; refused once the expense is paid out (administrators only)",
      params: appointmentPaymentParams,
      response: one(appointmentResponse),
      authorize: requireAdministrator,
      middleware: [financeEnabled],
    },
    async (ctx, { params }) => {
      const { user } = booker(ctx);
      ok(ctx, presentView(await cancelPayments(db(ctx), ctx.state.account!, user?.id ?? null, params.appointment_id)));
    },
  );
}
