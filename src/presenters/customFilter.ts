import type { CustomFilter } from "../models/CustomFilter";
import { iso } from "./time";

/** app/views/api/v1/models/_custom_filter.json.jbuilder */
export function presentCustomFilter(filter: CustomFilter) {
  return {
    id: filter.id,
    name: filter.name,
    filter_type: filter.filterTypeName,
    query: filter.query,
    created_at: iso(filter.created_at)!,
    updated_at: iso(filter.updated_at)!,
  };
}
