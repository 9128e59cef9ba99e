import type { Label } from "../models/Label";

/** app/views/api/v1/accounts/labels/*.json.jbuilder. */
export function presentLabel(label: Label) {
  return { id: label.id, title: label.title, description: label.description, color: label.color, show_on_sidebar: label.show_on_sidebar };
}
