import type { Service, ServicePrice } from "../../models/scheduling/Service";

function presentPrice(price: ServicePrice) {
  return {
    id: price.id,
    resource_id: price.resource_id,
    price: price.price,
    compensation_type: price.compensation_type,
    compensation_value: price.compensation_value,
    active: price.active,
  };
}

export function presentService(service: Service) {
  return {
    id: service.id,
    account_id: service.account_id,
    name: service.name,
    category: service.category,
    direction: service.direction,
    service_type: service.service_type,
    description: service.description,
    base_price: service.base_price,
    duration_min: service.duration_min,
    active: service.active,
    prepayment_required: service.prepayment_required,
    custom_attributes: service.custom_attributes,
    prices: (service.prices ?? []).map(presentPrice),
  };
}
