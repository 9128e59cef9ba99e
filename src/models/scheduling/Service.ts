import type { Knex } from "knex";
import type { CompensationType } from "../../scheduling/constants";
import { notFound } from "../../scheduling/errors";
import { SchedulingModel } from "./SchedulingModel";

export interface PriceAttributes {
  resource_id: number;
  price: number;
  compensation_type: CompensationType;
  compensation_value: number;
  active: boolean;
}

/** A resource's own price for a service, overriding base_price and the resource's compensation. */
export class ServicePrice extends SchedulingModel {
  static tableName = "scheduling_service_prices";

  declare account_id: number;
  declare service_id: number;
  declare resource_id: number;
  declare price: number;
  declare compensation_type: CompensationType;
  declare compensation_value: number;
  declare active: boolean;
}

/** Something that can be booked with a resource, with a base price in minor units. */
export class Service extends SchedulingModel {
  static tableName = "scheduling_services";
  static jsonAttributes = ["custom_attributes"];

  declare account_id: number;
  declare name: string;
  declare category: string | null;
  declare direction: string | null;
  declare service_type: string | null;
  declare description: string | null;
  declare base_price: number;
  declare duration_min: number;
  declare active: boolean;
  /** Bookings of it hold their slot until a prepayment arrives (the account's prepayment_hold_minutes). */
  declare prepayment_required: boolean;
  declare custom_attributes: Record<string, unknown>;
  declare prices?: ServicePrice[];

  static relationMappings = () => ({
    prices: {
      relation: SchedulingModel.HasManyRelation,
      modelClass: ServicePrice,
      join: { from: "scheduling_services.id", to: "scheduling_service_prices.service_id" },
      modify: (q: Knex.QueryBuilder) => q.orderBy(["resource_id", "id"]),
    },
  });

  static ofAccount(accountId: number) {
    return Service.query().where("account_id", accountId).withGraphFetched("prices").orderBy("id");
  }

  /**
   * Creates or updates a service; with `prices` the per-resource price set becomes exactly the
   * listed resources (upserted by resource, every other row removed), all in one transaction.
   */
  static async save(
    accountId: number,
    existing: Service | undefined,
    attributes: Partial<Service>,
    prices: readonly PriceAttributes[] | undefined,
  ): Promise<Service> {
    const id = await Service.transaction(async (trx) => {
      // Locked: concurrent price-set replacements apply one after the other instead of mixing.
      const service = existing
        ? await (await Service.lockInAccount(trx, accountId, existing.id, () => notFound("Service"))).$query(trx).patchAndFetch(attributes)
        : await Service.query(trx)
            .insert({ ...attributes, account_id: accountId })
            .returning("*");
      if (prices) await syncPrices(trx, service, prices);
      return service.id;
    });
    return (await Service.ofAccount(accountId).findById(id))!;
  }
}

async function syncPrices(trx: Knex.Transaction, service: Service, prices: readonly PriceAttributes[]) {
  await ServicePrice.query(trx)
    .delete()
    .where("service_id", service.id)
    .whereNotIn(
      "resource_id",
      prices.map((p) => p.resource_id),
    );
  if (prices.length === 0) return;
  const rows = prices.map((p) => ({ ...p, account_id: service.account_id, service_id: service.id }));
  await trx(ServicePrice.tableName)
    .insert(rows)
    .onConflict(["service_id", "resource_id"])
    .merge(["price", "compensation_type", "compensation_value", "active", "updated_at"]);
}
